// Package server is sift's front door: the native /v1 API (fetch, search,
// batch), health, metrics and MCP, with Firecrawl's v2 API (package
// firecrawl) mounted beside it, all behind bearer auth, the request log
// and a request-body cap. One file per route family.
package server

import (
	"context"
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
	"github.com/siftd/sift/firecrawl"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/mcptool"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/metrics"
)

// Health reports the state of sift's dependencies for /healthz.
type Health func() (ok bool, detail any)

// Service is what the API asks of sift's service (internal/service's
// Service): the handlers decode a request, make these calls and encode
// what they return. The Firecrawl API's calls are part of it.
type Service interface {
	firecrawl.Service
	// Callers are the configured callers, whose keys authenticate.
	Callers() []service.Caller
	// Fetch answers a /v1/fetch request.
	Fetch(ctx context.Context, c *service.Caller, req *service.FetchRequest) (*service.FetchAnswer, *service.Error)
	// Search answers a /v1/search request.
	Search(ctx context.Context, c *service.Caller, req *service.SearchRequest) (*service.SearchAnswer, *service.Error)
	// Stages are the chain's stage kinds, in order, for /healthz.
	Stages() []string
}

// Options configure a Server.
type Options struct {
	// Service runs the requests: the application, built by its owner (the
	// daemon) from the configuration.
	Service Service
	Logger  *slog.Logger
	Health  Health
	// Metrics, when set, are recorded and served on /metrics.
	Metrics *metrics.Metrics
	// MetricsAccess is who may scrape /metrics (the metrics block); the
	// zero value leaves it open.
	MetricsAccess config.Metrics
	// Batch is the batch runner behind the batch routes of both APIs; nil
	// answers them 503. Its owner starts and stops it, with a fetch
	// function that runs each stored target through the API it came from
	// (internal/batchtarget).
	Batch *batch.Runner
	// PageBytes bounds the stored results one batch read returns
	// (httpapi.MaxPageBytes when 0); tests shrink it.
	PageBytes int
	// PreCheck is the guard's check without resolution, run on every
	// batch target at submit.
	PreCheck func(rawURL string) error
	// History keeps the Firecrawl changeTracking format's page snapshots
	// (the store); nil answers that format with a warning.
	History firecrawl.History
	// PublicURL is the base of every absolute URL the API hands back (a
	// batch's status URL, its `next` page); never the request's Host.
	// Empty means the default listen address's.
	PublicURL string
}

// Server serves the API.
type Server struct {
	svc       Service
	firecrawl *firecrawl.API
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
		s.pageBytes = httpapi.MaxPageBytes
	}
	s.firecrawl = firecrawl.New(firecrawl.Options{Service: opts.Service, Metrics: opts.Metrics, Batch: opts.Batch,
		PageBytes: s.pageBytes, PreCheck: opts.PreCheck, PublicURL: s.publicURL, History: opts.History})
	return s
}

// Firecrawl is the Firecrawl API the server mounts, whose scrapes a
// stored batch target of that API runs through.
func (s *Server) Firecrawl() *firecrawl.API { return s.firecrawl }

// Handler returns the routes.
func (s *Server) Handler() http.Handler {
	r := mux.NewRouter()
	r.Use(s.measure)
	r.HandleFunc("/healthz", s.handleHealth).Methods(http.MethodGet)
	r.Handle("/metrics", s.metricsRoute(s.metricsAccess)).Methods(http.MethodGet)
	r.HandleFunc("/v1/fetch", s.authed(s.handleFetch)).Methods(http.MethodPost)
	r.HandleFunc("/v1/search", s.authed(s.handleSearch)).Methods(http.MethodPost)
	r.HandleFunc("/v1/batch", s.batchRoute(s.handleBatchSubmit)).Methods(http.MethodPost)
	r.HandleFunc("/v1/batch/{id}", s.batchRoute(s.handleBatchStatus)).Methods(http.MethodGet)
	r.HandleFunc("/v1/batch/{id}", s.batchRoute(s.handleBatchCancel)).Methods(http.MethodDelete)
	r.HandleFunc("/v1/batch/{id}/{idx}", s.batchRoute(s.handleBatchTarget)).Methods(http.MethodGet)
	// Each tool call is a request of its own, with its own log line.
	mcpHTTP := mcptool.NewHTTP("", httpapi.LogRequests(s.log, r), mcptool.HTTPOptions{PublicURL: s.publicURL})
	r.Handle("/mcp", s.mcpRoute(mcpHTTP)).Methods(http.MethodGet, http.MethodPost, http.MethodDelete)
	s.firecrawl.Mount(r, s.authedWithin, s.batchWithin)
	// No path answers without a key but /healthz and /metrics: an
	// unknown one is refused as a wrong method is, once the key is known,
	// so that nothing of what sift serves is told to a stranger.
	notServed := s.authedWithin(httpapi.MaxRequestBody, firecrawl.NotServed, firecrawl.WriteError)
	notFound := s.authed(func(w http.ResponseWriter, _ *http.Request, _ *caller) {
		writeError(w, classError(errclass.NotFound, "no such endpoint"))
	})
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if isFirecrawlPath(req.URL.Path) {
			notServed(w, req)
			return
		}
		notFound(w, req)
	})
	r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		allow := allowedMethods(r, req)
		answer := func(w http.ResponseWriter, req *http.Request, _ *caller) {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, badRequest("method not allowed: "+req.URL.Path+" takes "+strings.Join(allow, " or ")).WithStatus(http.StatusMethodNotAllowed))
		}
		if openPaths[req.URL.Path] {
			answer(w, req, nil)
			return
		}
		s.authed(answer)(w, req)
	})
	return httpapi.LogRequests(s.log, s.recoverPanics(r))
}

// openPaths are the paths that answer without a key (/metrics unless its
// block requires one, which its own route checks).
var openPaths = map[string]bool{"/healthz": true, "/metrics": true}

// isFirecrawlPath reports whether path is under Firecrawl's v2 API, whose
// unknown endpoints are answered as unsupported in its envelope.
func isFirecrawlPath(path string) bool { return strings.HasPrefix(path, "/v2/") }

// mcpRoute puts the MCP tools behind the API's keys: a missing or wrong
// key is the same 401 as on /v1/fetch. The tools call the routes in
// process with the request's key, so each call meets the same gates and
// guard as the route itself; a session belongs to the key that opened it.
func (s *Server) mcpRoute(h *mcptool.HTTP) http.HandlerFunc {
	return s.authedWithin(httpapi.MaxBatchBody, func(w http.ResponseWriter, r *http.Request, c *caller) {
		h.Serve(w, r, string(c.Hash))
	}, writeError)
}

// authed checks the bearer key and caps the request body.
func (s *Server) authed(h httpapi.Handler) http.HandlerFunc {
	return s.authedWithin(httpapi.MaxRequestBody, h, writeError)
}

// authedWithin is authed with a body cap of its own, for the routes
// (batch submission, MCP) whose bodies are larger; a body over it is
// refused with writeErr, in the envelope of the route's API, as is a
// missing or wrong key (401).
func (s *Server) authedWithin(maxBody int64, h httpapi.Handler, writeErr func(http.ResponseWriter, *apiError)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := s.authenticate(r)
		if err != nil {
			// RFC 6750: a 401 names the scheme it wants; MCP clients
			// otherwise take it for an OAuth server's.
			w.Header().Set("WWW-Authenticate", `Bearer realm="sift"`)
			writeErr(w, err)
			return
		}
		httpapi.LogOf(r.Context()).SetCaller(c)
		if ae := httpapi.CheckEncoding(r.Header.Values("Content-Encoding")); ae != nil {
			writeErr(w, ae)
			return
		}
		if r.ContentLength > maxBody {
			// Answered before the body is read: a client that sent
			// Expect: 100-continue then sends none of it.
			writeErr(w, httpapi.BodyTooLarge(maxBody, r.ContentLength))
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
		sw := httpapi.NewStatusWriter(w)
		next.ServeHTTP(sw, r)
		route := "unknown"
		if cr := mux.CurrentRoute(r); cr != nil {
			if tpl, err := cr.GetPathTemplate(); err == nil {
				route = tpl
			}
		}
		rl := httpapi.LogOf(r.Context())
		rl.SetRoute(route)
		s.metrics.Request(route, rl.CallerName(), sw.Status, time.Since(start))
	})
}

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
		httpapi.WriteJSON(w, status, map[string]any{"ok": ok})
		return
	}
	httpapi.WriteJSON(w, status, map[string]any{"ok": ok, "stages": s.svc.Stages(), "dependencies": detail})
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
