package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/siftd/sift/internal/service"
)

// RequestIDHeader carries a request's id in both directions: a client may
// send its own (well-formed) one, and every answer names the id its log
// line carries.
const RequestIDHeader = "X-Request-Id"

// requestIDPattern is what a client-sent id may be: short, printable, no
// spaces or quotes, so it is safe in a header, a log line and a query.
var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$`)

// RequestLog is what one HTTP request's log line says. The middleware
// makes it; the handlers and the pipeline fill it as they learn things.
type RequestLog struct {
	mu         sync.Mutex
	id         string
	route      string
	caller     string
	restricted bool
	mode       string
	answered   bool // an answer's fields below are set
	cached     bool
	tokens     int
	warnings   int
	host       string
	guard      string
	bytes      int
	err        string
}

type requestLogKey struct{}

// LogOf returns the request's log record, nil outside an HTTP request (a
// batch target).
func LogOf(ctx context.Context) *RequestLog {
	rl, _ := ctx.Value(requestLogKey{}).(*RequestLog)
	return rl
}

// WellFormedRequestID reports whether id is one sift keeps as sent.
func WellFormedRequestID(id string) bool { return requestIDPattern.MatchString(id) }

// newRequestID is 16 random hex digits.
func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// requestID keeps a client's id when it is well-formed, else makes one.
func requestID(r *http.Request) string {
	if id := r.Header.Get(RequestIDHeader); WellFormedRequestID(id) {
		return id
	}
	return newRequestID()
}

// LogRequests writes one line to log for every request, whatever answered
// it (a 401, a 400, a panic's 500 alike), with the status as written.
func LogRequests(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rl := &RequestLog{id: requestID(r)}
		w.Header().Set(RequestIDHeader, rl.id)
		sw := NewStatusWriter(w)
		next.ServeHTTP(sw, r.WithContext(service.WithRecord(context.WithValue(r.Context(), requestLogKey{}, rl), rl)))
		log.LogAttrs(r.Context(), slog.LevelInfo, "request", rl.attrs(sw.Status, time.Since(start))...)
	})
}

func (rl *RequestLog) attrs(status int, took time.Duration) []slog.Attr {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	route := rl.route
	if route == "" {
		route = "unknown"
	}
	caller := rl.caller
	if caller == "" {
		caller = anonymous
	}
	attrs := []slog.Attr{slog.String("id", rl.id), slog.String("route", route), slog.String("caller", caller),
		slog.Int("status", status), slog.Int64("ms", took.Milliseconds())}
	if rl.mode != "" {
		attrs = append(attrs, slog.String("mode", rl.mode))
	}
	if rl.answered {
		attrs = append(attrs, slog.Bool("cached", rl.cached), slog.Int("tokens", rl.tokens), slog.Int("warnings", rl.warnings))
	}
	// A restricted caller's lines name no host and no error: they could
	// tell another reader of the log what the caller looked at.
	if rl.guard != "" {
		attrs = append(attrs, slog.String("guard", rl.guard))
	}
	if rl.host != "" && !rl.restricted {
		attrs = append(attrs, slog.String("host", rl.host))
	}
	if rl.bytes > 0 {
		attrs = append(attrs, slog.Int("bytes", rl.bytes))
	}
	if rl.err != "" && !rl.restricted {
		attrs = append(attrs, slog.String("error", rl.err))
	}
	return attrs
}

// SetRoute names the route once: an MCP call's in-process route does not
// rename the /mcp request it serves.
func (rl *RequestLog) SetRoute(route string) {
	if rl == nil {
		return
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	if rl.route == "" {
		rl.route = route
	}
}

// SetCaller names the authenticated caller.
func (rl *RequestLog) SetCaller(c *service.Caller) {
	if rl == nil {
		return
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	rl.caller, rl.restricted = c.Name, c.Restricted
}

// SetMode names the request's mode (clean, digest, raw).
func (rl *RequestLog) SetMode(mode string) {
	if rl == nil {
		return
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	rl.mode = mode
}

// Answer records what the answer carried: tokens returned (not clean),
// whether it came from the cache, and how many warnings it has.
func (rl *RequestLog) Answer(cached bool, tokens, warnings int) {
	if rl == nil {
		return
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	rl.answered, rl.cached, rl.tokens, rl.warnings = true, cached, rl.tokens+tokens, rl.warnings+warnings
}

// Fetched records a pass through the chain: the host, the guard's verdict,
// the body's size and the error, if any.
func (rl *RequestLog) Fetched(host, verdict string, bytes int, errText string) {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	rl.host, rl.guard, rl.bytes, rl.err = host, verdict, bytes, errText
}

// anonymous names the caller of a request without a valid key.
const anonymous = "anonymous"

// CallerName is the caller's name, "" before authentication.
func (rl *RequestLog) CallerName() string {
	if rl == nil {
		return ""
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	return rl.caller
}
