// Package errclass is sift's one table of error classes. Every failure an
// agent can see starts with its class ("blocked: private address
// 10.0.0.5"), and the class alone decides the answer's HTTP status on the
// native /v1 API and on the Firecrawl API, whether a retry may help (and
// after how long), the label batch metrics count it under, and the exit
// code of the CLI. Errors name their class by implementing Classed, so the
// table needs nothing from the packages that fail: it imports only the
// standard library, and every package of sift may use it.
package errclass

import (
	"context"
	"slices"
	"strings"
)

// Class names a kind of failure. It is the first word of an error's text.
type Class string

// The classes, in the order a failure matching several is classified (a
// redirect the guard refused is blocked, not a redirect failure).
const (
	Blocked         Class = "blocked"
	NoSuchHost      Class = "no_such_host"
	DNSFailed       Class = "dns_failed"
	Unauthorized    Class = "unauthorized"
	Invalid         Class = "invalid"
	BadOption       Class = "bad_option"
	NoText          Class = "no_text"
	Unsupported     Class = "unsupported"
	TooLarge        Class = "too_large"
	Redirects       Class = "redirects"
	ContentType     Class = "content_type"
	Timeout         Class = "timeout"
	Upstream        Class = "upstream"
	ExtractorFailed Class = "extractor_failed"
	NotFound        Class = "not_found"
	Conflict        Class = "conflict"
	NotConfigured   Class = "not_configured"
	NotImplemented  Class = "not_implemented"
	Busy            Class = "busy"
	Unavailable     Class = "unavailable"
	Cancelled       Class = "cancelled"
	Internal        Class = "internal"
	// Origin4xx and Origin5xx are not failures of sift: the origin
	// answered an error status, and sift returned its page. Only the CLI
	// reports them, as its exit code.
	Origin4xx Class = "origin_4xx"
	Origin5xx Class = "origin_5xx"
)

// Row is what one class means to every front end.
type Row struct {
	Class Class
	// Status is the native (/v1) HTTP status; 0 for a class that is never
	// an answer of the API.
	Status int
	// Also are other statuses the class answers with where HTTP or the
	// request says more (invalid: 405 for a method, 422 for a well-formed
	// request sift cannot do).
	Also []int
	// FirecrawlStatus and FirecrawlCode are the Firecrawl API's answer:
	// its contract lists 400, 401, 403, 404, 408, 409, 429 and 500, and
	// "code" names the kind ("" sends none).
	FirecrawlStatus int
	FirecrawlCode   string
	// FirecrawlAlso are other Firecrawl statuses the class answers with
	// where HTTP says more (too_large: 413 for a request body over its
	// route's cap, which was not read).
	FirecrawlAlso []int
	// FirecrawlCodes are finer codes a failure of the class may send
	// instead of FirecrawlCode (invalid: CodeInvalidJSON).
	FirecrawlCodes []string
	// Retry says a retry may succeed; RetryAfter, in seconds, is the
	// Retry-After header's value when the answer carries one.
	Retry      bool
	RetryAfter int
	// Requeue says a batch target failing with the class is put back and
	// run again later, within the runner's retry window, rather than
	// failed: sift was out of capacity or cut short, not the target.
	Requeue bool
	// Recover says a fetch that asked to recover from the archive tries
	// an archived snapshot after a failure of the class: the origin, or
	// the way to it, failed, where a refusal or a bad request would fail
	// the same way for the snapshot.
	Recover bool
	// Outcome is the label a failed batch target is counted under in
	// sift_batch_targets_total (OutcomeOther for a failure of no class).
	Outcome string
	// Exit is the CLI's exit code.
	Exit int
	// When says what the class means, for the error table of docs/api.md.
	When string
}

// CodeInvalidJSON is the Firecrawl code of a request body that is not a
// JSON object, a refinement of invalid's BAD_REQUEST that Firecrawl sends.
const CodeInvalidJSON = "BAD_REQUEST_INVALID_JSON"

// Firecrawl's codes of a cache-only scrape that no cached copy answers,
// refinements of not_found: with lockdown, and with minAge.
const (
	CodeLockdownMiss = "SCRAPE_LOCKDOWN_CACHE_MISS"
	CodeNoCachedData = "SCRAPE_NO_CACHED_DATA"
)

// OutcomeOther is the batch metrics label of a failure the batch runner
// cannot class (a panic, options it cannot read, a caller no longer
// configured): it is no row's.
const OutcomeOther = "other"

// table is every class, in classification order. Exit codes 10 to 29 mean
// a retry cannot help, 30 to 39 that it may, 4 and 5 that the origin
// answered 4xx or 5xx; 1 is any other failure of the command itself.
var table = []Row{
	{Class: Blocked, Status: 403, Also: []int{422}, FirecrawlStatus: 403, Outcome: "blocked", Exit: 10,
		When: "the guard refused the URL or a redirect hop (`blocked: private address 10.0.0.5`); 422 for a batch target, refused at submission"},
	{Class: NoSuchHost, Status: 422, FirecrawlStatus: 400, FirecrawlCode: "NO_SUCH_HOST", Outcome: "upstream_4xx", Exit: 11,
		When: "the name does not exist (NXDOMAIN) or has no address"},
	{Class: DNSFailed, Status: 502, FirecrawlStatus: 500, FirecrawlCode: "DNS_FAILED", Retry: true, Recover: true, Outcome: "upstream_5xx", Exit: 30,
		When: "the resolver failed (SERVFAIL, no answer in time)"},
	{Class: Unauthorized, Status: 401, FirecrawlStatus: 401, Outcome: "upstream_4xx", Exit: 12,
		When: "no key or an unknown one: send `Authorization: Bearer <key>` (`SIFT_KEY` for the CLI)"},
	{Class: Invalid, Status: 400, Also: []int{405, 422}, FirecrawlStatus: 400, FirecrawlCode: "BAD_REQUEST", FirecrawlCodes: []string{CodeInvalidJSON}, Outcome: "upstream_4xx", Exit: 13,
		When: "a bad request (405 a wrong method, 422 one sift cannot carry out, such as too many batch targets) or a malformed document, 422 (`invalid: malformed JSON at line 3, column 5`); on Firecrawl, `BAD_REQUEST_INVALID_JSON` for a body that is not a JSON object"},
	{Class: BadOption, Status: 400, FirecrawlStatus: 400, FirecrawlCode: "BAD_OPTION", Outcome: "upstream_4xx", Exit: 14,
		When: "an option that does not fit the document (`pages` past a PDF's end)"},
	{Class: NoText, Status: 422, FirecrawlStatus: 400, FirecrawlCode: "NO_TEXT", Outcome: "upstream_4xx", Exit: 15,
		When: "a PDF without a text layer (a scan) that OCR did not read (`ocr: never`, no tesseract, nothing found), or an image without text, with `hint: ocr`"},
	{Class: Unsupported, Status: 415, FirecrawlStatus: 400, FirecrawlAlso: []int{415}, FirecrawlCode: "UNSUPPORTED", Outcome: "unsupported", Exit: 16,
		When: "no extractor for the content type; `raw` of a binary type; an image without tesseract to read it; a request body sent with a `Content-Encoding` (415 on Firecrawl too)"},
	{Class: TooLarge, Status: 413, FirecrawlStatus: 400, FirecrawlAlso: []int{413}, FirecrawlCode: "TOO_LARGE", Outcome: "too_large", Exit: 17,
		When: "the body over `max_body`, on the wire or after decoding (gzip bombs); a document whose reading ran its extractor out of its `memory` (the process is replaced); a request or batch result over its cap (a request body over its route's cap is 413 on Firecrawl too)"},
	{Class: Redirects, Status: 422, FirecrawlStatus: 400, FirecrawlCode: "REDIRECTS", Outcome: "upstream_4xx", Exit: 18,
		When: "more than 5 redirects, a redirect loop, a malformed `Location`"},
	{Class: ContentType, Status: 422, FirecrawlStatus: 400, FirecrawlCode: "CONTENT_TYPE", Outcome: "upstream_4xx", Exit: 19,
		When: "the body contradicts its `Content-Type`"},
	{Class: Timeout, Status: 504, FirecrawlStatus: 408, FirecrawlCode: "SCRAPE_TIMEOUT", Retry: true, Recover: true, Outcome: "timeout", Exit: 31,
		When: "no whole answer within the total timeout (slow headers, a dripping body), or a plugin past its deadline"},
	{Class: Upstream, Status: 502, FirecrawlStatus: 500, FirecrawlCode: "UPSTREAM", Retry: true, Recover: true, Outcome: "upstream_5xx", Exit: 32,
		When: "connection, TLS (a wrong certificate), HTTP framing (a `Content-Length` lie), a bad encoding; no search backend answered"},
	{Class: ExtractorFailed, Status: 502, FirecrawlStatus: 500, FirecrawlCode: "EXTRACTOR_FAILED", Retry: true, Recover: true, Outcome: "upstream_5xx", Exit: 33,
		When: "the extractor process crashed or was killed (the pool replaces it), failed the call (a bug, a recovered panic), or its pool cannot start one"},
	{Class: NotFound, Status: 404, FirecrawlStatus: 404, FirecrawlCodes: []string{CodeLockdownMiss, CodeNoCachedData}, Outcome: "upstream_4xx", Exit: 20,
		When: "no such endpoint, or no such batch job (or another caller's); on Firecrawl, a cache-only scrape (`lockdown`, `minAge`) that no cached copy answers, `SCRAPE_LOCKDOWN_CACHE_MISS` or `SCRAPE_NO_CACHED_DATA`"},
	{Class: Conflict, Status: 409, FirecrawlStatus: 409, Outcome: "upstream_4xx", Exit: 21,
		When: "cancelling a batch job that has already finished or was already cancelled"},
	{Class: NotConfigured, Status: 501, FirecrawlStatus: 500, FirecrawlCode: "NOT_CONFIGURED", Outcome: "upstream_5xx", Exit: 22,
		When: "search without a search backend in the configuration"},
	{Class: NotImplemented, Status: 501, FirecrawlStatus: 500, FirecrawlCode: "NOT_IMPLEMENTED", Outcome: "upstream_5xx", Exit: 23,
		When: "a `clean` or `digest` fetch through a chain without an extract stage"},
	{Class: Busy, Status: 429, FirecrawlStatus: 429, Retry: true, RetryAfter: 1, Requeue: true, Outcome: "busy", Exit: 34,
		When: "a concurrency gate stayed full past the `gates` block's `wait`, or its line is full (a batch over its job caps waits 30 s)"},
	{Class: Unavailable, Status: 503, FirecrawlStatus: 500, FirecrawlCode: "UNAVAILABLE", Retry: true, Requeue: true, Recover: true, Outcome: "upstream_5xx", Exit: 35,
		When: "the database does not answer a batch call (`unavailable: storage unavailable`, with `Retry-After`; a fetch still answers, uncached, with a warning); batch disabled"},
	{Class: Cancelled, Status: 503, FirecrawlStatus: 500, FirecrawlCode: "CANCELLED", Retry: true, Requeue: true, Recover: true, Outcome: "upstream_5xx", Exit: 36,
		When: "the request ended (its client went away) before the answer was ready"},
	{Class: Internal, Status: 500, FirecrawlStatus: 500, FirecrawlCode: "INTERNAL", Retry: true, Recover: true, Outcome: "upstream_5xx", Exit: 37,
		When: "a failure sift did not expect; its log says more"},
	{Class: Origin4xx, Exit: 4,
		When: "CLI only: the origin answered 4xx; `sift fetch` printed its page"},
	{Class: Origin5xx, Exit: 5,
		When: "CLI only: the origin answered 5xx; `sift fetch` printed its page"},
}

// Rows returns a copy of the table, in classification order.
func Rows() []Row { return slices.Clone(table) }

// byClass indexes table; it is built once and only read.
var byClass = func() map[Class]int {
	m := make(map[Class]int, len(table))
	for i, r := range table {
		m[r.Class] = i
	}
	return m
}()

// Lookup returns the row of class c; ok is false for a class the table
// does not know.
func Lookup(c Class) (Row, bool) {
	i, ok := byClass[c]
	if !ok {
		return Row{}, false
	}
	return table[i], true
}

// Get returns the row of c, or Internal's for a class the table does not
// know.
func Get(c Class) Row {
	if r, ok := Lookup(c); ok {
		return r
	}
	return table[byClass[Internal]]
}

// Document returns the row of a class a plugin reported for a document.
// A malformed document is invalid with 422 (the request was well formed);
// a class the table does not know is answered as such a document is, under
// its own name.
func Document(c Class) Row {
	r, ok := Lookup(c)
	switch {
	case c == Invalid:
		r.Status = 422
	case !ok:
		r = Get(Invalid)
		r.Class, r.Status, r.FirecrawlCode = c, 422, strings.ToUpper(string(c))
	}
	return r
}

// Allows reports whether status is one the class answers with.
func (r Row) Allows(status int) bool {
	if status == r.Status {
		return true
	}
	for _, s := range r.Also {
		if s == status {
			return true
		}
	}
	return false
}

// AllowsFirecrawl reports whether status is one the class answers with
// on the Firecrawl API.
func (r Row) AllowsFirecrawl(status int) bool {
	return status == r.FirecrawlStatus || slices.Contains(r.FirecrawlAlso, status)
}

// AllowsCode reports whether code is a Firecrawl code of the class.
func (r Row) AllowsCode(code string) bool {
	return code == r.FirecrawlCode || slices.Contains(r.FirecrawlCodes, code)
}

// Classed is an error that names its class.
type Classed interface {
	error
	ErrorClass() Class
}

// Error is a failure of a known class.
type Error struct {
	Class Class
	Msg   string
	// Status, when set, is one of the statuses the class allows (Row.Also)
	// that this failure answers with instead of the row's.
	Status int
	// RetryAfter, when set, is how many seconds this failure asks a client
	// to wait instead of the row's.
	RetryAfter int
}

// New returns an error of class c whose text is msg; use it for sentinels
// (errors.Is matches the value).
func New(c Class, msg string) *Error { return &Error{Class: c, Msg: msg} }

// Error returns the message as given.
func (e *Error) Error() string { return e.Msg }

// ErrorClass returns e's class.
func (e *Error) ErrorClass() Class { return e.Class }

// Of classifies err: of all the classes named along its chain (and
// context.DeadlineExceeded, a timeout), the one first in table; ok is false
// when none is named, and the class is then Internal.
func Of(err error) (c Class, ok bool) {
	r, ok := Resolve(err)
	return r.Class, ok
}

// Resolve classifies err as Of does and returns its row, with the status
// and Retry-After the classifying *Error refines it with; ok is false when
// no class is named, and the row is then Internal's.
func Resolve(err error) (Row, bool) {
	best := len(table)
	var refined *Error
	walk(err, func(e error) {
		var found Class
		if ce, isClassed := e.(Classed); isClassed {
			found = ce.ErrorClass()
		} else if e == context.DeadlineExceeded {
			found = Timeout
		} else {
			return
		}
		if i, known := byClass[found]; known && i < best {
			best = i
			refined, _ = e.(*Error)
		}
	})
	if best == len(table) {
		return Get(Internal), false
	}
	r := table[best]
	if refined != nil {
		if refined.Status != 0 && r.Allows(refined.Status) {
			r.Status = refined.Status
		}
		if refined.RetryAfter > 0 {
			r.RetryAfter = refined.RetryAfter
		}
	}
	return r, true
}

// walk calls f on err and every error it wraps.
func walk(err error, f func(error)) {
	for err != nil {
		f(err)
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e, f)
			}
			return
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		default:
			return
		}
	}
}

// Prefix returns msg starting with "class: ", unless it already does.
func Prefix(c Class, msg string) string {
	if strings.HasPrefix(msg, string(c)+":") {
		return msg
	}
	return string(c) + ": " + msg
}

// FromMessage reads the class an error's text starts with ("blocked: …"),
// as a client of sift's API sees it; ok is false when the text starts with
// no class the table knows.
func FromMessage(msg string) (Class, bool) {
	head, _, found := strings.Cut(msg, ":")
	if !found {
		return "", false
	}
	c := Class(head)
	_, ok := byClass[c]
	return c, ok
}
