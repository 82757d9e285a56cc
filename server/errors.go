package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/invisible"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// apiError is an error as agents see it: a status, a class that starts the
// message, and a hint of what to do instead. Its status, Firecrawl status
// and code and Retry-After come from errclass's table; build one with
// classError (or firecrawlBadRequest), never by hand.
type apiError struct {
	Status  int
	Class   errclass.Class
	Message string
	Hint    string
	// Code refines the class's Firecrawl code (BAD_REQUEST_INVALID_JSON).
	Code string
	// RetryAfter is the Retry-After header's seconds; 0 sends none.
	RetryAfter int
	// FirecrawlStatus, when set, replaces the table's Firecrawl status
	// where HTTP says more: 413 for a request body over its cap.
	FirecrawlStatus int
}

func (e *apiError) Error() string { return e.Message }

// classError is a failure of class c, its message prefixed with the class.
func classError(c errclass.Class, msg string) *apiError {
	return fromRow(errclass.Get(c), errclass.Prefix(c, msg))
}

// fromRow is the answer of row r with message msg.
func fromRow(r errclass.Row, msg string) *apiError {
	// A plugin's or the origin's words may quote the document, which may
	// hide text from the reader the way a page can. Every error message
	// starts here, so it is cleaned once.
	msg, _ = invisible.Strip(msg)
	ae := &apiError{Status: r.Status, Class: r.Class, Message: msg, RetryAfter: r.RetryAfter}
	if r.RetryAfter > 0 {
		ae.Hint = "retry_after"
	}
	return ae
}

// withStatus answers with status instead of the class's, if the table
// allows it for the class.
func (e *apiError) withStatus(status int) *apiError {
	if rowOf(e.Class).Allows(status) {
		e.Status = status
	}
	return e
}

// rowOf is the row of a class, including a class a plugin reported for a
// document that the table does not know.
func rowOf(c errclass.Class) errclass.Row {
	if r, ok := errclass.Lookup(c); ok {
		return r
	}
	return errclass.Document(c)
}

// toAPIError classifies any failure through errclass's table. The message
// keeps the failing stage's words and starts with the class ("blocked:
// private address …").
func toAPIError(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var de *sdk.DocError
	if errors.As(err, &de) {
		ae := fromRow(errclass.Document(errclass.Class(de.Class)), de.Error())
		if ae.Class == errclass.NoText {
			ae.Hint = "ocr" // a scan: only OCR reads it
		}
		return ae
	}
	r, _ := errclass.Resolve(err)
	return fromRow(r, errclass.Prefix(r.Class, innermost(err)))
}

// innermost drops the "stage NAME (plugin): " prefix the runner adds.
func innermost(err error) string {
	var se *stages.Error
	if errors.As(err, &se) {
		return se.Err.Error()
	}
	return err.Error()
}

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
	if e.Code != "" {
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
	if e.FirecrawlStatus != 0 {
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
