package service

import (
	"errors"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/internal/invisible"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// Error is a failure as agents see it: a status, a class that starts the
// message, and a hint of what to do instead. Its status, Firecrawl status
// and code and Retry-After come from errclass's table; build one with
// ClassError (or FromRow), never by hand.
type Error struct {
	Status  int
	Class   errclass.Class
	Message string
	Hint    string
	// Code refines the class's Firecrawl code with one of its row's
	// FirecrawlCodes (errclass.CodeInvalidJSON); any other is ignored.
	Code string
	// RetryAfter is the Retry-After header's seconds; 0 sends none.
	RetryAfter int
	// FirecrawlStatus, when set, replaces the table's Firecrawl status
	// where HTTP says more, with one of its row's FirecrawlAlso (413 for a
	// request body over its cap); any other is ignored.
	FirecrawlStatus int
}

func (e *Error) Error() string { return e.Message }

// ErrStorage is a storage outage as agents see it wherever it costs more
// than the cache (batch submission and reads): 503 unavailable, with
// Retry-After, and no word of the database.
var ErrStorage = stages.ErrStorage

// ClassError is a failure of class c, its message prefixed with the class.
func ClassError(c errclass.Class, msg string) *Error {
	return FromRow(errclass.Get(c), errclass.Prefix(c, msg))
}

// FromRow is the answer of row r with message msg.
func FromRow(r errclass.Row, msg string) *Error {
	// A plugin's or the origin's words may quote the document, which may
	// hide text from the reader the way a page can. Every error message
	// starts here, so it is cleaned once.
	msg, _ = invisible.Strip(msg)
	e := &Error{Status: r.Status, Class: r.Class, Message: msg, RetryAfter: r.RetryAfter}
	if r.RetryAfter > 0 {
		e.Hint = "retry_after"
	}
	return e
}

// WithStatus answers with status instead of the class's, if the table
// allows it for the class.
func (e *Error) WithStatus(status int) *Error {
	if RowOf(e.Class).Allows(status) {
		e.Status = status
	}
	return e
}

// RowOf is the row of a class, including a class a plugin reported for a
// document that the table does not know.
func RowOf(c errclass.Class) errclass.Row {
	if r, ok := errclass.Lookup(c); ok {
		return r
	}
	return errclass.Document(c)
}

// ErrorOf classifies any failure through errclass's table. The message
// keeps the failing stage's words and starts with the class ("blocked:
// private address …").
func ErrorOf(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var de *sdk.DocError
	if errors.As(err, &de) {
		e := FromRow(errclass.Document(errclass.Class(de.Class)), de.Error())
		if e.Class == errclass.NoText {
			e.Hint = "ocr" // a scan: only OCR reads it
		}
		return e
	}
	r, _ := errclass.Resolve(err)
	e = FromRow(r, errclass.Prefix(r.Class, innermost(err)))
	if b, ok := errors.AsType[*guard.Blocked](err); ok && r.Class == errclass.Blocked {
		e.Hint = guardHint(b)
	}
	return e
}

// localAddresses are the address classes of an operator's own network,
// which allow_cidrs may admit on purpose; link-local (cloud metadata) and
// the rest get no hint.
var localAddresses = map[string]bool{"loopback address": true, "private address": true, "unique local address": true,
	"shared address space (CGNAT)": true}

// guardHint names the setting that admits what the guard refused, where
// one does: a local origin an operator meant to reach (a test server, an
// intranet page) is refused until the guard stage lists it.
func guardHint(b *guard.Blocked) string {
	switch {
	case b.Rule == "port not allowed":
		return "the guard stage's allow_ports admits more ports (config.hcl)"
	case localAddresses[b.Rule]:
		return "the guard stage's allow_cidrs admits an address range on purpose (config.hcl); sift refuses non-global addresses by default"
	}
	return ""
}

// innermost drops the "stage NAME (plugin): " prefix the runner adds.
func innermost(err error) string {
	var se *stages.Error
	if errors.As(err, &se) {
		return se.Err.Error()
	}
	return err.Error()
}
