// Package httpapi is what sift's two HTTP APIs (the native /v1 in server,
// Firecrawl's /v2 in firecrawl) share: the request log, body decoding in
// the terms of the JSON a client sent, the JSON answer, the bounds on
// bodies and client durations, and the batch store's errors as a caller
// may see them. Each API writes errors in its own envelope.
package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/service"
)

// Bounds of a request body.
const (
	// MaxRequestBody bounds a request's JSON body.
	MaxRequestBody = 64 << 10
	// MaxBatchBody bounds the body of a batch submission (32 targets with
	// their questions and options) and of an MCP message, which may carry
	// one: a constant, not config, since the cap protects the server
	// before any configuration is read.
	MaxBatchBody = 256 << 10
	// MaxPageBytes bounds the stored results one batch read returns: a
	// read with more to give answers a page and a `next`.
	MaxPageBytes = 8 << 20
)

// Handler is a handler that knows its authenticated caller.
type Handler func(w http.ResponseWriter, r *http.Request, c *service.Caller)

// BadRequest is an invalid request, its message prefixed with the class.
func BadRequest(msg string) *service.Error { return service.ClassError(errclass.Invalid, msg) }

// WriteJSON writes v with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// SetRetryAfter names when e's caller may try again, when it says.
func SetRetryAfter(w http.ResponseWriter, e *service.Error) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
}

// TrimClass drops a message's class prefix ("invalid: ").
func TrimClass(msg, class string) string {
	return strings.TrimPrefix(msg, class+": ")
}

// BatchError is one of the batch runner's errors as the caller may see
// it: any error that names no class is the store's, and is answered as a
// storage outage is wherever it shows (503 unavailable, with Retry-After);
// the store's words (its database's address, user and name) are not the
// caller's to read.
func BatchError(err error) *service.Error {
	if _, known := errclass.Of(err); !known {
		err = service.ErrStorage
	}
	return service.ErrorOf(err)
}

// NonNegative reads the query parameter name as a non-negative integer
// (0 when absent).
func NonNegative(q url.Values, name string) (int, *service.Error) {
	v := q.Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, BadRequest(fmt.Sprintf("%s %q is not a non-negative integer", name, v))
	}
	return n, nil
}

// StatusWriter remembers the status a handler wrote.
type StatusWriter struct {
	http.ResponseWriter
	// Status is the status written, 200 until one is.
	Status int
}

// NewStatusWriter wraps w.
func NewStatusWriter(w http.ResponseWriter) *StatusWriter {
	return &StatusWriter{ResponseWriter: w, Status: http.StatusOK}
}

// WriteHeader records status and writes it.
func (w *StatusWriter) WriteHeader(status int) {
	w.Status = status
	w.ResponseWriter.WriteHeader(status)
}

// Flush passes flushes through, for the event streams of /mcp.
func (w *StatusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *StatusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// PreCheck refuses at submit what the guard would refuse without resolving
// the name (check, the guard's PreCheck; nil checks nothing): a private
// address literal, a port or scheme not allowed. A refusal is 422, since
// the job is refused whole with the target named.
func PreCheck(check func(rawURL string) error, rawURL string) *service.Error {
	if check == nil {
		return nil
	}
	if err := check(rawURL); err != nil {
		return service.ErrorOf(err).WithStatus(http.StatusUnprocessableEntity)
	}
	return nil
}
