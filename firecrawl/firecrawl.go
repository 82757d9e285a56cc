// Package firecrawl is sift's Firecrawl v2 API: its routes (/v2/scrape,
// /v2/search, /v2/map, /v2/batch/scrape), the field table that honours,
// warns about or refuses each field a Firecrawl client sends, its answers
// and its error envelope. It runs over the same service as the native
// API; the server mounts its routes behind the same keys and body caps.
package firecrawl

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/focus"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/stages"
)

// Service is what the Firecrawl API asks of sift's service
// (internal/service's Service).
type Service interface {
	// Run passes one request through the chain under the caller's gates.
	Run(ctx context.Context, c *service.Caller, req stages.Request) (*service.Result, *service.Error)
	// StructuredJSON is a page's content as JSON under a schema (the
	// json format), or the warning that says why not.
	StructuredJSON(ctx context.Context, req service.StructuredRequest) (json.RawMessage, string)
	// Focus keeps the parts of content most relevant to question within
	// maxTokens (the highlights format, a question without a digester).
	Focus(ctx context.Context, content, question string, maxTokens int) focus.Result
	// SearchWeb runs the search backends.
	SearchWeb(ctx context.Context, query string, limit int) (*search.Outcome, error)
	// FetchTimeout is the fetch stage's own deadline for one fetch (0
	// without one): a request's longer timeout does not lengthen it.
	FetchTimeout() time.Duration
}

// Options configure an API.
type Options struct {
	Service Service
	// Metrics record each scrape's tokens; nil records nothing.
	Metrics *metrics.Metrics
	// Batch is the runner behind /v2/batch/scrape; the server answers the
	// batch routes 503 while it is nil.
	Batch *batch.Runner
	// PageBytes bounds the stored results one status read returns
	// (httpapi.MaxPageBytes when 0).
	PageBytes int
	// PreCheck is the guard's check without resolution, run on every
	// batch target at submit.
	PreCheck func(rawURL string) error
	// PublicURL is the base of the absolute URLs answers carry (a batch
	// job's url, its next page), without a trailing slash.
	PublicURL string
	// History keeps the page snapshots of the changeTracking format; nil
	// (no store) answers that format with a warning.
	History History
}

// API serves the Firecrawl routes.
type API struct {
	svc       Service
	metrics   *metrics.Metrics
	batch     *batch.Runner
	pageBytes int
	precheck  func(string) error
	publicURL string
	history   History
}

// New returns the API over opts.Service.
func New(opts Options) *API {
	if opts.Metrics == nil {
		opts.Metrics = metrics.New()
	}
	if opts.PageBytes <= 0 {
		opts.PageBytes = httpapi.MaxPageBytes
	}
	return &API{svc: opts.Service, metrics: opts.Metrics, batch: opts.Batch, pageBytes: opts.PageBytes,
		precheck: opts.PreCheck, publicURL: strings.TrimRight(opts.PublicURL, "/"), history: opts.History}
}

// Wrap puts a handler behind the caller's key and a body cap of maxBody
// bytes; a refusal is written with writeErr, in the API's own envelope.
type Wrap func(maxBody int64, h httpapi.Handler, writeErr func(http.ResponseWriter, *service.Error)) http.HandlerFunc

// Mount adds the Firecrawl routes to r: authed wraps the request routes,
// batch the batch routes (which also answer 503 while batch is off).
func (a *API) Mount(r *mux.Router, authed, batch Wrap) {
	req := func(h httpapi.Handler) http.HandlerFunc { return authed(httpapi.MaxRequestBody, h, WriteError) }
	job := func(h httpapi.Handler) http.HandlerFunc { return batch(httpapi.MaxBatchBody, h, WriteError) }
	r.HandleFunc("/v2/scrape", req(a.handleScrape)).Methods(http.MethodPost)
	r.HandleFunc("/v2/search", req(a.handleSearch)).Methods(http.MethodPost)
	r.HandleFunc("/v2/map", req(a.handleMap)).Methods(http.MethodPost)
	r.HandleFunc("/v2/batch/scrape", job(a.handleBatchStart)).Methods(http.MethodPost)
	r.HandleFunc("/v2/batch/scrape/{id}", job(a.handleBatchStatus)).Methods(http.MethodGet)
	r.HandleFunc("/v2/batch/scrape/{id}", job(a.handleBatchCancel)).Methods(http.MethodDelete)
	r.HandleFunc("/v2/batch/scrape/{id}/errors", job(a.handleBatchErrors)).Methods(http.MethodGet)
	r.HandleFunc("/v1/scrape", req(a.handleScrapeV1)).Methods(http.MethodPost)
	r.HandleFunc("/v1/map", req(a.handleMapV1)).Methods(http.MethodPost)
	routeUnsupported(r, req)
}

// ScrapeStored answers a stored batch target's scrape request (the Scrape
// of a service.StoredTarget) as /v2/scrape would.
func (a *API) ScrapeStored(ctx context.Context, c *service.Caller, raw json.RawMessage) (any, *service.Error) {
	var req scrapeRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, service.ClassError(errclass.Internal, "unreadable stored scrape request")
	}
	return a.scrapeTarget(ctx, c, &req)
}
