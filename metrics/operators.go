package metrics

import (
	"slices"
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/guard"
)

// Caller label values besides the configured callers' names.
const (
	// Anonymous is a request without a valid key (a 401, /healthz).
	Anonymous = "anonymous"
	// Other is a name no caller block has declared since sift started:
	// never expected, but a label must not take an unbounded value.
	Other = "other"
)

// GuardRules are the rules the guard refuses by, the rule label of
// sift_guard_refusals_total.
var GuardRules = guard.Rules()

// DigestFallbackReasons are the reasons a digest falls back to clean text
// (the digester's error classes), and "skipped" for a page whose content
// type the digest stage's content_types leave out.
var DigestFallbackReasons = []string{"timeout", "busy", "unavailable", "too_large", "invalid", "failed", "skipped", Other}

// ContextOutcomes are the ends of a context lookup.
var ContextOutcomes = []string{"ok", "no_terms", "timeout", "error", "unreachable", "not_configured"}

// FetchErrorClasses are the classes a pass through the chain fails with:
// the API's error classes, as errclass's table lists them.
var FetchErrorClasses = apiClasses()

func apiClasses() []string {
	var out []string
	for _, r := range errclass.Rows() {
		if r.Status != 0 {
			out = append(out, string(r.Class))
		}
	}
	return append(out, Other)
}

// PluginCallOutcomes and PluginRestartReasons are the label values the
// plugin host reports.
var (
	PluginCallOutcomes   = []string{"ok", "document_error", "reply_too_large", "cancelled", "timeout", "out_of_memory", "crashed", "failed"}
	PluginRestartReasons = []string{"cancelled", "timeout", "out_of_memory", "crash", "exited"}
)

// Routes are the API's routes whose request series start at zero.
var Routes = []string{"/v1/fetch", "/v2/scrape", "/v1/search", "/v2/search", "/v1/batch", "/v2/batch/scrape", "/mcp", "/v2/map"}

// callerSet bounds the caller label to the callers configured since
// sift started: a caller a reload removed keeps its name on the requests
// it had in flight, which finish on the configuration they arrived on.
type callerSet struct {
	mu    sync.RWMutex
	names []string
}

func (m *Metrics) newOperatorSeries() {
	m.busy = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sift_busy_rejections_total", Help: "Requests answered 429 busy (a gate or a pool full), by caller.",
	}, []string{"caller"})
	m.fallbacks = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sift_digest_fallbacks_total", Help: "Digests asked for and answered with clean text instead, by reason.",
	}, []string{"reason"})
	m.contexts = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sift_context_lookups_total", Help: "Context lookups by outcome.",
	}, []string{"outcome"})
	m.fetchErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sift_fetch_errors_total", Help: "Passes through the chain that failed, by error class.",
	}, []string{"class"})
	for _, r := range DigestFallbackReasons {
		m.fallbacks.WithLabelValues(r)
	}
	for _, o := range ContextOutcomes {
		m.contexts.WithLabelValues(o)
	}
	for _, c := range FetchErrorClasses {
		m.fetchErrors.WithLabelValues(c)
	}
	for _, v := range []string{"hit", "miss"} {
		m.cacheLookups.WithLabelValues(v)
	}
}

// SetCallers adds names to the caller label's values and starts each
// caller's series at zero, so a rate or an alert sees a caller before its
// first request, or its first guard refusal. Names of callers an earlier
// configuration declared stay: their requests in flight at a reload count
// under their own name, never as Other.
func (m *Metrics) SetCallers(names []string) {
	m.callers.mu.Lock()
	for _, n := range names {
		if !slices.Contains(m.callers.names, n) {
			m.callers.names = append(m.callers.names, n)
		}
	}
	m.callers.mu.Unlock()
	for _, c := range names {
		for _, r := range GuardRules {
			m.guardRefusals.WithLabelValues(r, c)
		}
	}
	for _, c := range append(slices.Clone(names), Anonymous) {
		m.busy.WithLabelValues(c)
		for _, k := range []string{"raw", "returned"} {
			m.tokens.WithLabelValues(k, c)
		}
		for _, r := range Routes {
			m.requests.WithLabelValues(r, c, strconv.Itoa(200))
		}
	}
}

// SetPlugins starts each plugin's call and restart series at zero.
func (m *Metrics) SetPlugins(names []string) {
	for _, p := range names {
		for _, o := range PluginCallOutcomes {
			m.pluginCalls.WithLabelValues(p, o)
		}
		for _, r := range PluginRestartReasons {
			m.pluginRestarts.WithLabelValues(p, r)
		}
	}
}

// SearchBackends starts each configured search backend's series at zero.
func (m *Metrics) SearchBackends(names []string) {
	for _, b := range names {
		for _, o := range []string{"ok", "error"} {
			m.searchCalls.WithLabelValues(b, o)
		}
		m.searchLatency.WithLabelValues(b)
	}
}

// caller is name when it is a configured caller, Anonymous for none, and
// Other otherwise.
func (m *Metrics) caller(name string) string {
	if name == "" || name == Anonymous {
		return Anonymous
	}
	m.callers.mu.RLock()
	defer m.callers.mu.RUnlock()
	if slices.Contains(m.callers.names, name) {
		return name
	}
	return Other
}

// DigestFallback records a digest answered with clean text; an unknown
// reason counts as Other.
func (m *Metrics) DigestFallback(reason string) {
	if !slices.Contains(DigestFallbackReasons, reason) {
		reason = Other
	}
	m.fallbacks.WithLabelValues(reason).Inc()
}

// ContextLookup records how a context lookup ended.
func (m *Metrics) ContextLookup(outcome string) {
	if slices.Contains(ContextOutcomes, outcome) {
		m.contexts.WithLabelValues(outcome).Inc()
	}
}

// FetchError records a failed pass through the chain by its class.
func (m *Metrics) FetchError(class string) {
	if !slices.Contains(FetchErrorClasses, class) {
		class = Other
	}
	m.fetchErrors.WithLabelValues(class).Inc()
}
