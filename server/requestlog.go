package server

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

// requestLog is what one HTTP request's log line says. The middleware
// makes it; the handlers and the pipeline fill it as they learn things.
type requestLog struct {
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

// logOf returns the request's log record, nil outside an HTTP request (a
// batch target).
func logOf(ctx context.Context) *requestLog {
	rl, _ := ctx.Value(requestLogKey{}).(*requestLog)
	return rl
}

// newRequestID is 16 random hex digits.
func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// requestID keeps a client's id when it is well-formed, else makes one.
func requestID(r *http.Request) string {
	if id := r.Header.Get(RequestIDHeader); requestIDPattern.MatchString(id) {
		return id
	}
	return newRequestID()
}

// logRequests writes one line for every request, whatever answered it (a
// 401, a 400, a panic's 500 alike), with the status as written.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := s.now()
		rl := &requestLog{id: requestID(r)}
		w.Header().Set(RequestIDHeader, rl.id)
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r.WithContext(service.WithRecord(context.WithValue(r.Context(), requestLogKey{}, rl), rl)))
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", rl.attrs(sw.status, time.Since(start))...)
	})
}

func (rl *requestLog) attrs(status int, took time.Duration) []slog.Attr {
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

// setRoute names the route once: an MCP call's in-process route does not
// rename the /mcp request it serves.
func (rl *requestLog) setRoute(route string) {
	if rl == nil {
		return
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	if rl.route == "" {
		rl.route = route
	}
}

func (rl *requestLog) setCaller(c *caller) {
	if rl == nil {
		return
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	rl.caller, rl.restricted = c.Name, c.Restricted
}

func (rl *requestLog) setMode(mode string) {
	if rl == nil {
		return
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	rl.mode = mode
}

// answer records what the answer carried: tokens returned (not clean),
// whether it came from the cache, and how many warnings it has.
func (rl *requestLog) answer(cached bool, tokens, warnings int) {
	if rl == nil {
		return
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	rl.answered, rl.cached, rl.tokens, rl.warnings = true, cached, rl.tokens+tokens, rl.warnings+warnings
}

// Fetched records a pass through the chain: the host, the guard's verdict,
// the body's size and the error, if any.
func (rl *requestLog) Fetched(host, verdict string, bytes int, errText string) {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	rl.host, rl.guard, rl.bytes, rl.err = host, verdict, bytes, errText
}

// anonymous names the caller of a request without a valid key.
const anonymous = "anonymous"

func (rl *requestLog) callerName() string {
	if rl == nil {
		return ""
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	return rl.caller
}
