// Package metrics names every Prometheus series sift exports, in one
// place. No label ever carries a URL, a host or a job id: label values come
// from fixed sets (routes, statuses, guard rules, plugin names, the
// configured callers).
package metrics

import (
	"net/http"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds sift's collectors and the registry they live in.
type Metrics struct {
	registry       *prometheus.Registry
	requests       *prometheus.CounterVec
	latency        *prometheus.HistogramVec
	guardRefusals  *prometheus.CounterVec
	cacheLookups   *prometheus.CounterVec
	revalidations  *prometheus.CounterVec
	stageLatency   *prometheus.HistogramVec
	pluginCalls    *prometheus.CounterVec
	pluginLatency  *prometheus.HistogramVec
	pluginRestarts *prometheus.CounterVec
	searchCalls    *prometheus.CounterVec
	searchLatency  *prometheus.HistogramVec
	rerankLatency  prometheus.Histogram
	tokenRatio     prometheus.Histogram
	tokens         *prometheus.CounterVec
	gateWait       *prometheus.HistogramVec
	busy           *prometheus.CounterVec
	fallbacks      *prometheus.CounterVec
	contexts       *prometheus.CounterVec
	fetchErrors    *prometheus.CounterVec
	callers        callerSet
	config         configSeries
	// cacheStats reads the cache stages' figures at a scrape; nil while
	// the configuration has no cache stage. A reload replaces it.
	cacheStats atomic.Pointer[CacheStats]
	// Batch are the batch runner's series.
	Batch *Batch
}

// New registers every series in a fresh registry.
func New() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sift_http_requests_total", Help: "API requests by route, caller and status as answered.",
		}, []string{"route", "caller", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "sift_http_request_duration_seconds", Help: "API request latency by route.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 20, 60},
		}, []string{"route"}),
		guardRefusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sift_guard_refusals_total", Help: "URLs the guard refused, by rule and caller.",
		}, []string{"rule", "caller"}),
		cacheLookups: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sift_cache_lookups_total", Help: "Cache lookups by result (hit, miss).",
		}, []string{"result"}),
		revalidations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sift_cache_revalidations_total",
			Help: "Conditional requests for snapshots kept past their freshness, by result (not_modified: a 304 renewed the snapshot, the body not sent again; modified: the origin sent it whole).",
		}, []string{"result"}),
		stageLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "sift_stage_duration_seconds", Help: "Time each pipeline stage took, by stage kind.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"stage"}),
		pluginCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sift_plugin_calls_total", Help: "Plugin calls by plugin and outcome.",
		}, []string{"plugin", "outcome"}),
		pluginLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "sift_plugin_call_duration_seconds", Help: "Plugin call latency by plugin.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 5, 30},
		}, []string{"plugin"}),
		pluginRestarts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sift_plugin_restarts_total", Help: "Plugin processes replaced, by plugin and reason.",
		}, []string{"plugin", "reason"}),
		searchCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sift_search_backend_requests_total", Help: "Search backend calls by backend and outcome.",
		}, []string{"backend", "outcome"}),
		searchLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "sift_search_backend_duration_seconds", Help: "Search backend latency by backend.",
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 4, 8, 15},
		}, []string{"backend"}),
		rerankLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "sift_search_rerank_duration_seconds", Help: "Time to rerank one search's results.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2, 5},
		}),
		tokenRatio: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "sift_tokens_returned_ratio", Help: "Tokens returned to the agent over tokens fetched, per fetch.",
			Buckets: []float64{.02, .05, .1, .2, .3, .5, .75, 1, 1.5},
		}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sift_tokens_total", Help: "Tokens fetched (raw) and returned to agents (returned), by caller.",
		}, []string{"kind", "caller"}),
		gateWait: newGateWait(),
		config:   newConfigSeries(),
		Batch:    newBatch(),
	}
	m.newOperatorSeries()
	m.registry.MustRegister(m.Batch.collectors()...)
	m.registry.MustRegister(m.config.collectors()...)
	m.registry.MustRegister(m.requests, m.latency, m.guardRefusals, m.cacheLookups, m.revalidations, m.stageLatency,
		m.pluginCalls, m.pluginLatency, m.pluginRestarts, m.searchCalls, m.searchLatency, m.rerankLatency,
		m.tokenRatio, m.tokens, m.busy, m.fallbacks, m.contexts, m.fetchErrors, m.gateWait, cacheCollector{m},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// Request records one API request. route is the route's template; caller
// a configured caller's name, or Anonymous.
func (m *Metrics) Request(route, caller string, status int, took time.Duration) {
	m.requests.WithLabelValues(route, m.caller(caller), strconv.Itoa(status)).Inc()
	if status == http.StatusTooManyRequests {
		m.busy.WithLabelValues(m.caller(caller)).Inc()
	}
	m.latency.WithLabelValues(route).Observe(took.Seconds())
}

// GuardRefusal records a refusal by the rule that made it and the caller
// whose URL it was; a rule GuardRules does not list counts as Other.
func (m *Metrics) GuardRefusal(rule, caller string) {
	if !slices.Contains(GuardRules, rule) {
		rule = Other
	}
	m.guardRefusals.WithLabelValues(rule, m.caller(caller)).Inc()
}

// CacheLookup records a cache hit or miss.
func (m *Metrics) CacheLookup(hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	m.cacheLookups.WithLabelValues(result).Inc()
}

// CacheRevalidation records how a conditional request for a stale
// snapshot ended: "not_modified" or "modified".
func (m *Metrics) CacheRevalidation(result string) {
	m.revalidations.WithLabelValues(result).Inc()
}

// SetStages starts the duration series of each stage kind of the chain at
// zero.
func (m *Metrics) SetStages(kinds []string) {
	for _, k := range kinds {
		m.stageLatency.WithLabelValues(k)
	}
}

// Stage records the time one stage took; stage is its kind's name.
func (m *Metrics) Stage(stage string, took time.Duration) {
	m.stageLatency.WithLabelValues(stage).Observe(took.Seconds())
}

// PluginCall records one plugin call and how it ended.
func (m *Metrics) PluginCall(plugin, outcome string, took time.Duration) {
	m.pluginCalls.WithLabelValues(plugin, outcome).Inc()
	m.pluginLatency.WithLabelValues(plugin).Observe(took.Seconds())
}

// PluginRestart records a replaced plugin process.
func (m *Metrics) PluginRestart(plugin, reason string) {
	m.pluginRestarts.WithLabelValues(plugin, reason).Inc()
}

// SearchBackend records one call to a search backend.
func (m *Metrics) SearchBackend(backend, outcome string, took time.Duration) {
	m.searchCalls.WithLabelValues(backend, outcome).Inc()
	m.searchLatency.WithLabelValues(backend).Observe(took.Seconds())
}

// SearchRerank records the time one rerank took.
func (m *Metrics) SearchRerank(took time.Duration) { m.rerankLatency.Observe(took.Seconds()) }

// Tokens records one fetch's raw and returned token counts: the saving
// operators watch. A fetch of nothing records no ratio.
func (m *Metrics) Tokens(caller string, raw, returned int) {
	m.tokens.WithLabelValues("raw", m.caller(caller)).Add(float64(raw))
	m.tokens.WithLabelValues("returned", m.caller(caller)).Add(float64(returned))
	if raw > 0 {
		m.tokenRatio.Observe(float64(returned) / float64(raw))
	}
}
