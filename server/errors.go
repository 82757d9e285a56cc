package server

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/service"
)

// apiError is an error as agents see it (service.Error): the handlers
// write it in the envelope of their API.
type apiError = service.Error

// classError is a failure of class c, its message prefixed with the class.
func classError(c errclass.Class, msg string) *apiError { return service.ClassError(c, msg) }

// fromRow is the answer of row r with message msg.
func fromRow(r errclass.Row, msg string) *apiError { return service.FromRow(r, msg) }

// rowOf is the row of a class, including a class a plugin reported for a
// document that the table does not know.
func rowOf(c errclass.Class) errclass.Row { return service.RowOf(c) }

// toAPIError classifies any failure through errclass's table.
func toAPIError(err error) *apiError { return service.ErrorOf(err) }

func badRequest(msg string) *apiError { return classError(errclass.Invalid, msg) }

// writeJSON writes v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// writeError writes sift's error envelope.
func writeError(w http.ResponseWriter, e *apiError) {
	body := map[string]any{"success": false, "error": e.Message}
	if e.Hint != "" {
		body["hint"] = e.Hint
	}
	setRetryAfter(w, e)
	writeJSON(w, e.Status, body)
}

// writeFirecrawlError writes Firecrawl's error envelope with the status
// and code errclass's table gives the class: the SDKs show "error", and
// "code" names the kind.
func writeFirecrawlError(w http.ResponseWriter, e *apiError) {
	r := rowOf(e.Class)
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
	setRetryAfter(w, e)
	status := r.FirecrawlStatus
	if e.FirecrawlStatus != 0 && r.AllowsFirecrawl(e.FirecrawlStatus) {
		status = e.FirecrawlStatus
	}
	writeJSON(w, status, body)
}

func setRetryAfter(w http.ResponseWriter, e *apiError) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
}

// firecrawlBadRequest is a request Firecrawl's API refuses, in its words.
func firecrawlBadRequest(msg string) *apiError {
	return fromRow(errclass.Get(errclass.Invalid), "Bad Request: "+msg)
}

// withCode refines e's Firecrawl code.
func withCode(e *apiError, code string) *apiError {
	e.Code = code
	return e
}

// inFirecrawlWords rewrites a native answer in the words Firecrawl's SDKs
// know: "Bad Request: …", "Job not found", "Crawl is already completed".
func inFirecrawlWords(ae *apiError) *apiError {
	out := *ae
	switch ae.Class {
	case errclass.Invalid:
		out.Message = "Bad Request: " + trimClass(ae.Message, string(errclass.Invalid))
	case errclass.NotFound:
		out.Message = "Job not found"
	case errclass.Conflict:
		out.Message = "Crawl is already completed"
	}
	return &out
}
