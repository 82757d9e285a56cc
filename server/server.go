// Package server is sift's HTTP API: the Firecrawl v2 scrape endpoint, the
// native fetch endpoint and health, behind bearer auth, concurrency gates
// and a request-body cap. One file per API family.
package server

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/config"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/mcptool"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/stages"
)

// Limits of the API.
const (
	// MaxRequestBody bounds a request's JSON body.
	MaxRequestBody = 64 << 10
	// DefaultGlobalLimit is how many fetches run at once.
	DefaultGlobalLimit = 8
	// DefaultPerHostLimit is how many fetches one caller runs on one host.
	DefaultPerHostLimit = 1
)

// Health reports the state of sift's dependencies for /healthz.
type Health func() (ok bool, detail any)

// Options configure a Server.
type Options struct {
	Chain   *stages.Chain
	Callers []config.Caller
	Logger  *slog.Logger
	Health  Health
	// Global and PerHost override the gate sizes; 0 means the default.
	Global, PerHost int
	// GateWait bounds how long a request waits in line for a full gate,
	// and GateQueue how many may wait for one caller's host; 0 means the
	// default, a negative value refuses at once.
	GateWait  time.Duration
	GateQueue int
	// Metrics, when set, are recorded and served on /metrics.
	Metrics *metrics.Metrics
	// ArchiveURL is the Wayback Machine prefix for `recover`.
	ArchiveURL string
	// Search answers /v2/search and /v1/search; nil answers "not
	// configured".
	Search *search.Service
	// Batch is the batch runner behind the batch routes, whose fetch
	// function is (*Server).BatchFetch; nil answers the routes 503. Its
	// owner starts and stops it.
	Batch *batch.Runner
	// PageBytes bounds the stored results one batch read returns
	// (MaxPageBytes when 0); tests shrink it.
	PageBytes int
	// Gates, when set, are the gates this server takes: the servers of
	// successive configurations share one. Else Global and PerHost size
	// gates of its own.
	Gates *Gates
	// PreCheck is the guard's check without resolution, run on every
	// batch target at submit.
	PreCheck func(rawURL string) error
	// PublicURL is the base of every absolute URL the API hands back (a
	// batch's status URL, its `next` page); never the request's Host.
	// Empty means the default listen address's.
	PublicURL string
	// Digester condenses the top results of a `/v1/search` with `digest:
	// true`; nil joins their clean text instead.
	Digester stages.Digester

	testBatch   *testBatch    // tests: a runner to build over this server
	extraConfig string        // tests: top-level HCL added to the test config
	resolver    *net.Resolver // tests: the guard's resolver
	grepTimeout time.Duration // tests: the grep deadline, GrepTimeout when 0
}

// Server serves the API.
type Server struct {
	chain    *stages.Chain
	callers  []caller
	log      *slog.Logger
	health   Health
	gates    *gates
	metrics  *metrics.Metrics
	cached   bool // the chain has a cache stage
	digester stages.Digester
	// contextStage says the chain has a context stage to answer
	// `context: true`.
	contextStage bool
	archive      string
	search       *search.Service
	batch        *batch.Runner // nil when batch is disabled; not owned
	pageBytes    int           // the most stored results one batch read returns
	precheck     func(string) error
	publicURL    string
	grepTimeout  time.Duration
	now          func() time.Time
	// instance tells this server's answers kept beside cache snapshots
	// from those of the servers of other configurations.
	instance string
}

// New returns a server for the given chain and callers.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Metrics == nil {
		opts.Metrics = metrics.New()
	}
	if opts.PublicURL == "" {
		opts.PublicURL = config.DefaultPublicURL(config.DefaultListen)
	}
	names := make([]string, len(opts.Callers))
	for i, c := range opts.Callers {
		names[i] = c.Name
	}
	opts.Metrics.SetCallers(names)
	if opts.Gates == nil {
		opts.Gates = NewGates(opts.Global, opts.PerHost, opts.GateWait, opts.GateQueue, opts.Metrics)
	}
	s := &Server{
		chain: opts.Chain, callers: callersFrom(opts.Callers), log: opts.Logger,
		health: opts.Health, gates: opts.Gates.g, metrics: opts.Metrics,
		cached: slices.Contains(opts.Chain.Names(), "cache"), contextStage: slices.Contains(opts.Chain.Names(), "context"), archive: opts.ArchiveURL, search: opts.Search, digester: opts.Digester, now: time.Now,
		precheck: opts.PreCheck, publicURL: strings.TrimRight(opts.PublicURL, "/"),
	}
	s.instance = newRequestID()
	s.grepTimeout = opts.grepTimeout
	if s.grepTimeout <= 0 {
		s.grepTimeout = GrepTimeout
	}
	s.batch, s.pageBytes = opts.Batch, opts.PageBytes
	if s.pageBytes <= 0 {
		s.pageBytes = MaxPageBytes
	}
	return s
}

// Gates bound concurrent fetches (a global limit and one per caller per
// host). A reload keeps them: requests on the old and the new
// configuration share one set of slots.
type Gates struct{ g *gates }

// NewGates returns gates of the given sizes, with requests waiting in line
// for at most wait, at most queue of them per caller's host (0 means the
// default, a negative value none), their waits recorded in m.
func NewGates(global, perHost int, wait time.Duration, queue int, m *metrics.Metrics) *Gates {
	if global == 0 {
		global = DefaultGlobalLimit
	}
	if perHost == 0 {
		perHost = DefaultPerHostLimit
	}
	var observe func(time.Duration, bool)
	if m != nil {
		observe = m.GateWait
	}
	return &Gates{g: newGates(global, perHost, gateWait(wait), gateQueue(queue), observe)}
}

// Handler returns the routes.
func (s *Server) Handler() http.Handler {
	r := mux.NewRouter()
	r.Use(s.measure)
	r.HandleFunc("/healthz", s.handleHealth).Methods(http.MethodGet)
	r.Handle("/metrics", s.metrics.Handler()).Methods(http.MethodGet)
	r.HandleFunc("/v1/fetch", s.authed(s.handleFetch)).Methods(http.MethodPost)
	r.HandleFunc("/v2/scrape", s.authed(s.handleScrape)).Methods(http.MethodPost)
	r.HandleFunc("/v2/search", s.authed(s.handleFirecrawlSearch)).Methods(http.MethodPost)
	r.HandleFunc("/v1/search", s.authed(s.handleSearch)).Methods(http.MethodPost)
	r.HandleFunc("/v1/batch", s.batchRoute(s.handleBatchSubmit)).Methods(http.MethodPost)
	r.HandleFunc("/v1/batch/{id}", s.batchRoute(s.handleBatchStatus)).Methods(http.MethodGet)
	r.HandleFunc("/v1/batch/{id}", s.batchRoute(s.handleBatchCancel)).Methods(http.MethodDelete)
	r.HandleFunc("/v1/batch/{id}/{idx}", s.batchRoute(s.handleBatchTarget)).Methods(http.MethodGet)
	r.HandleFunc("/v2/batch/scrape", s.batchRoute(s.handleFirecrawlBatchStart)).Methods(http.MethodPost)
	r.HandleFunc("/v2/batch/scrape/{id}", s.batchRoute(s.handleFirecrawlBatchStatus)).Methods(http.MethodGet)
	r.HandleFunc("/v2/batch/scrape/{id}", s.batchRoute(s.handleFirecrawlBatchCancel)).Methods(http.MethodDelete)
	r.HandleFunc("/v2/batch/scrape/{id}/errors", s.batchRoute(s.handleFirecrawlBatchErrors)).Methods(http.MethodGet)
	// Each tool call is a request of its own, with its own log line.
	r.Handle("/mcp", s.mcpRoute(mcptool.HTTPHandler("", s.logRequests(r)))).Methods(http.MethodGet, http.MethodPost, http.MethodDelete)
	r.HandleFunc("/v2/map", s.authed(s.handleFirecrawlMap)).Methods(http.MethodPost)
	routeFirecrawlUnsupported(r)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, classError(errclass.NotFound, "no such endpoint"))
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, badRequest("method not allowed").withStatus(http.StatusMethodNotAllowed))
	})
	return s.logRequests(s.recoverPanics(r))
}

// mcpRoute puts the MCP tools behind the API's keys: a missing or wrong
// key is the same 401 as on /v1/fetch. The tools call the routes in
// process with the request's key, so each call meets the same gates and
// guard as the route itself.
func (s *Server) mcpRoute(h http.Handler) http.HandlerFunc {
	return s.authedWithin(MaxBatchBody, func(w http.ResponseWriter, r *http.Request, _ *caller) {
		h.ServeHTTP(w, r)
	})
}

// authedHandler is a handler that knows its caller.
type authedHandler func(w http.ResponseWriter, r *http.Request, c *caller)

// authed checks the bearer key and caps the request body.
func (s *Server) authed(h authedHandler) http.HandlerFunc {
	return s.authedWithin(MaxRequestBody, h)
}

// authedWithin is authed with a body cap of its own, for the one route
// (batch submission) whose bodies are larger.
func (s *Server) authedWithin(maxBody int64, h authedHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := s.authenticate(r)
		if err != nil {
			writeError(w, err)
			return
		}
		logOf(r.Context()).setCaller(c)
		if r.ContentLength > maxBody {
			// Answered before the body is read: a client that sent
			// Expect: 100-continue then sends none of it.
			ae := bodyTooLarge(maxBody, r.ContentLength)
			if strings.HasPrefix(r.URL.Path, "/v2/") {
				writeFirecrawlError(w, ae)
			} else {
				writeError(w, ae)
			}
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		h(w, r, c)
	}
}

// measure records each request's route template, status and latency.
func (s *Server) measure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := s.now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		route := "unknown"
		if cr := mux.CurrentRoute(r); cr != nil {
			if tpl, err := cr.GetPathTemplate(); err == nil {
				route = tpl
			}
		}
		rl := logOf(r.Context())
		rl.setRoute(route)
		s.metrics.Request(route, rl.callerName(), sw.status, time.Since(start))
	})
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

// Flush passes flushes through, for the event streams of /mcp.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// recoverPanics turns a panic into a 500 without echoing its value.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				// The value and stack go to the log only: the client
				// sees the class, never sift's internals.
				s.log.Error("panic in handler", "route", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				writeError(w, classError(errclass.Internal, "unexpected failure"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// handleHealth answers whether sift is healthy. Only a caller with a valid
// key sees the detail: the stages and each dependency's state, whose
// errors can name internal addresses.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	ok, detail := true, any(nil)
	if s.health != nil {
		ok, detail = s.health()
	}
	status := http.StatusOK
	if !ok {
		status = http.StatusServiceUnavailable
	}
	if _, ae := s.authenticate(r); ae != nil {
		writeJSON(w, status, map[string]any{"ok": ok})
		return
	}
	writeJSON(w, status, map[string]any{"ok": ok, "stages": s.chain.Names(), "dependencies": detail})
}
