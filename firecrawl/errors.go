package firecrawl

import (
	"net/http"
	"strings"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// WriteError writes Firecrawl's error envelope with the status
// and code errclass's table gives the class: the SDKs show "error", and
// "code" names the kind.
func WriteError(w http.ResponseWriter, e *service.Error) {
	status, body := errorAnswer(e)
	httpapi.SetRetryAfter(w, e)
	httpapi.WriteJSON(w, status, body)
}

// errorAnswer is e's status and envelope.
func errorAnswer(e *service.Error) (int, map[string]any) {
	r := service.RowOf(e.Class)
	code := r.FirecrawlCode
	if e.Code != "" && r.AllowsCode(e.Code) {
		code = e.Code
	}
	body := map[string]any{"success": false, "error": e.Message}
	if code != "" {
		body["code"] = code
	}
	if e.Hint != "" {
		body["hint"] = e.Hint
	}
	status := r.FirecrawlStatus
	if e.FirecrawlStatus != 0 && r.AllowsFirecrawl(e.FirecrawlStatus) {
		status = e.FirecrawlStatus
	}
	return status, body
}

// badRequest is a request Firecrawl's API refuses, in its words.
func badRequest(msg string) *service.Error {
	return service.FromRow(errclass.Get(errclass.Invalid), "Bad Request: "+msg)
}

// withCode refines e's Firecrawl code.
func withCode(e *service.Error, code string) *service.Error {
	e.Code = code
	return e
}

// inFirecrawlWords rewrites a native answer in the words Firecrawl's SDKs
// know: "Bad Request: …", "Job not found", "Crawl is already completed"
// (or cancelled, for a job cancelled before).
func inFirecrawlWords(ae *service.Error) *service.Error {
	out := *ae
	switch ae.Class {
	case errclass.Invalid:
		out.Message = "Bad Request: " + httpapi.TrimClass(ae.Message, string(errclass.Invalid))
	case errclass.NotFound:
		out.Message = "Job not found"
	case errclass.Conflict:
		out.Message = "Crawl is already completed"
		if strings.Contains(ae.Message, "already cancelled") {
			out.Message = "Crawl is already cancelled"
		}
	}
	return &out
}
