// Package server is sift's HTTP API: the Firecrawl v2 scrape endpoint, the
// native fetch endpoint and health, behind bearer auth, concurrency gates
// and a request-body cap. One file per API family.
package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/config"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/mcptool"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/stages"
)

// MaxRequestBody bounds a request's JSON body.
const MaxRequestBody = 64 << 10

// Health reports the state of sift's dependencies for /healthz.
type Health func() (ok bool, detail any)

// App is the application the API adapts to HTTP (internal/service's
// Service): the handlers decode a request, make these calls and encode
// what they return.
type App interface {
	// Callers are the configured callers, whose keys authenticate.
	Callers() []service.Caller
	// Fetch answers a /v1/fetch request (and a native batch target).
	Fetch(ctx context.Context, c *service.Caller, req *service.FetchRequest) (*service.FetchAnswer, *service.Error)
	// Run passes one request through the chain under the caller's gates:
	// a scrape, a page read for a search digest.
	Run(ctx context.Context, c *service.Caller, req stages.Request) (*service.Result, *service.Error)
	// Search answers a /v1/search request.
	Search(ctx context.Context, c *service.Caller, req *service.SearchRequest) (*service.SearchAnswer, *service.Error)
	// BatchFetch runs a stored batch target, answered as its API would.
	BatchFetch(ctx context.Context, bc batch.Caller, t batch.Target, answer service.TargetFunc) ([]byte, error)
	// StructuredJSON is a page's content as JSON under a schema (the
	// Firecrawl json format), or the warning that says why not.
	StructuredJSON(ctx context.Context, req service.StructuredRequest) (json.RawMessage, string)
	// SearchWeb runs the search backends for a Firecrawl search.
	SearchWeb(ctx context.Context, query string, limit int) (*search.Outcome, error)
	// Stages are the chain's stage kinds, in order, for /healthz.
	Stages() []string
}

// Options configure a Server.
type Options struct {
	// Service runs the requests: the application, built by its owner (the
	// daemon) from the configuration.
	Service App
	Logger  *slog.Logger
	Health  Health
	// Metrics, when set, are recorded and served on /metrics.
	Metrics *metrics.Metrics
	// MetricsAccess is who may scrape /metrics (the metrics block); the
	// zero value leaves it open.
	MetricsAccess config.Metrics
	// Batch is the batch runner behind the batch routes, whose fetch
	// function is (*Server).BatchFetch; nil answers the routes 503. Its
	// owner starts and stops it.
	Batch *batch.Runner
	// PageBytes bounds the stored results one batch read returns
	// (MaxPageBytes when 0); tests shrink it.
	PageBytes int
	// PreCheck is the guard's check without resolution, run on every
	// batch target at submit.
	PreCheck func(rawURL string) error
	// PublicURL is the base of every absolute URL the API hands back (a
	// batch's status URL, its `next` page); never the request's Host.
	// Empty means the default listen address's.
	PublicURL string
}

// Server serves the API.
type Server struct {
	svc       App
	callers   []caller
	log       *slog.Logger
	health    Health
	metrics   *metrics.Metrics
	batch     *batch.Runner // nil when batch is disabled; not owned
	pageBytes int           // the most stored results one batch read returns
	precheck  func(string) error
	publicURL string
	now       func() time.Time
	// metricsAccess is who may scrape /metrics.
	metricsAccess config.Metrics
}

// New returns a server over opts.Service.
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
	callers := opts.Service.Callers()
	names := make([]string, len(callers))
	for i, c := range callers {
		names[i] = c.Name
	}
	opts.Metrics.SetCallers(names)
	s := &Server{
		svc: opts.Service, callers: callers, log: opts.Logger,
		health: opts.Health, metrics: opts.Metrics, now: time.Now,
		precheck: opts.PreCheck, publicURL: strings.TrimRight(opts.PublicURL, "/"),
		metricsAccess: opts.MetricsAccess,
	}
	s.batch, s.pageBytes = opts.Batch, opts.PageBytes
	if s.pageBytes <= 0 {
		s.pageBytes = MaxPageBytes
	}
	return s
}

// Handler returns the routes.
func (s *Server) Handler() http.Handler {
	r := mux.NewRouter()
	r.Use(s.measure)
	r.HandleFunc("/healthz", s.handleHealth).Methods(http.MethodGet)
	r.Handle("/metrics", s.metricsRoute(s.metricsAccess)).Methods(http.MethodGet)
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
	mcpHTTP := mcptool.NewHTTP("", s.logRequests(r), mcptool.HTTPOptions{PublicURL: s.publicURL})
	r.Handle("/mcp", s.mcpRoute(mcpHTTP)).Methods(http.MethodGet, http.MethodPost, http.MethodDelete)
	r.HandleFunc("/v2/map", s.authed(s.handleFirecrawlMap)).Methods(http.MethodPost)
	routeFirecrawlUnsupported(r)
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if strings.HasPrefix(req.URL.Path, "/v2/") {
			firecrawlNotServed(w, req)
			return
		}
		writeError(w, classError(errclass.NotFound, "no such endpoint"))
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		allow := allowedMethods(r, req)
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, badRequest("method not allowed: "+req.URL.Path+" takes "+strings.Join(allow, " or ")).WithStatus(http.StatusMethodNotAllowed))
	})
	return s.logRequests(s.recoverPanics(r))
}

// mcpRoute puts the MCP tools behind the API's keys: a missing or wrong
// key is the same 401 as on /v1/fetch. The tools call the routes in
// process with the request's key, so each call meets the same gates and
// guard as the route itself; a session belongs to the key that opened it.
func (s *Server) mcpRoute(h *mcptool.HTTP) http.HandlerFunc {
	return s.authedWithin(MaxBatchBody, func(w http.ResponseWriter, r *http.Request, c *caller) {
		h.Serve(w, r, string(c.Hash))
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
	writeJSON(w, status, map[string]any{"ok": ok, "stages": s.svc.Stages(), "dependencies": detail})
}

// allowedMethods are the methods r serves req's path with, for a 405's
// Allow header.
func allowedMethods(r *mux.Router, req *http.Request) []string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
		probe := req.Clone(req.Context())
		probe.Method = m
		var match mux.RouteMatch
		if r.Match(probe, &match) && match.MatchErr == nil {
			allow = append(allow, m)
		}
	}
	return allow
}
