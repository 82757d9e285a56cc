package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/fetch"
)

// apiError is an error as agents see it: a status, a class that starts the
// message, and a hint of what to do instead.
type apiError struct {
	Status  int
	Class   string
	Message string
	Hint    string
}

func (e *apiError) Error() string { return e.Message }

// classes maps what the chain can fail with to a status and class: 4xx when
// retrying cannot help, 5xx when it may.
var classes = []struct {
	err    error
	status int
	class  string
}{
	{guard.ErrBlocked, http.StatusForbidden, "blocked"},
	{guard.ErrNoSuchHost, http.StatusUnprocessableEntity, "no_such_host"},
	{guard.ErrResolveFailed, http.StatusBadGateway, "dns_failed"},
	{stages.ErrUnsupportedType, http.StatusUnsupportedMediaType, "unsupported"},
	{fetch.ErrTooLarge, http.StatusRequestEntityTooLarge, "too_large"},
	{fetch.ErrRedirects, http.StatusUnprocessableEntity, "redirects"},
	{fetch.ErrContentType, http.StatusUnprocessableEntity, "content_type"},
	{fetch.ErrTimeout, http.StatusGatewayTimeout, "timeout"},
	{fetch.ErrUpstream, http.StatusBadGateway, "upstream"},
	{host.ErrTimeout, http.StatusGatewayTimeout, "timeout"},
	{host.ErrCrashed, http.StatusBadGateway, "extractor_failed"},
	{host.ErrReplyTooLarge, http.StatusBadGateway, "extractor_failed"},
	{host.ErrUnavailable, http.StatusBadGateway, "extractor_failed"},
	{stages.ErrNotImplemented, http.StatusNotImplemented, "not_implemented"},
	{stages.ErrBusy, http.StatusTooManyRequests, "busy"},
	{stages.ErrStorage, http.StatusServiceUnavailable, "unavailable"},
	{context.DeadlineExceeded, http.StatusGatewayTimeout, "timeout"},
}

// toAPIError classifies a pipeline error. The message keeps the failing
// stage's words and starts with the class ("blocked: private address …").
func toAPIError(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	msg := innermost(err)
	var de *sdk.DocError
	if errors.As(err, &de) {
		status := map[string]int{sdk.ClassUnsupported: 415, sdk.ClassTooLarge: 413, sdk.ClassBadOption: 400}[de.Class]
		if status == 0 {
			status = http.StatusUnprocessableEntity
		}
		ae := &apiError{Status: status, Class: de.Class, Message: de.Error()}
		if de.Class == "no_text" {
			ae.Hint = "ocr" // a scan: only OCR reads it
		}
		return ae
	}
	for _, c := range classes {
		if errors.Is(err, c.err) {
			return &apiError{Status: c.status, Class: c.class, Message: withClass(c.class, msg)}
		}
	}
	return &apiError{Status: http.StatusInternalServerError, Class: "internal", Message: withClass("internal", msg)}
}

// innermost drops the "stage NAME (plugin): " prefix the runner adds.
func innermost(err error) string {
	var se *stages.Error
	if errors.As(err, &se) {
		return se.Err.Error()
	}
	return err.Error()
}

func withClass(class, msg string) string {
	if strings.HasPrefix(msg, class+":") {
		return msg
	}
	return class + ": " + msg
}

func badRequest(msg string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Class: "invalid", Message: "invalid: " + msg}
}

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
	if e.Status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, e.Status, body)
}
