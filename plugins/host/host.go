package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/mediatype"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/hclconfig"
	"github.com/siftd/sift/stages"
)

// Host runs the configured extractors and routes media types to them.
type Host struct {
	specs     map[string]*Spec
	routes    []route
	sniffs    []sniffRoute
	contains  containerRoutes
	digesters map[string]stages.Digester
	pools     []*Pool
}

type route struct {
	pattern  string
	name     string
	external bool
	ex       stages.Extractor
}

// Options tune how Start runs plugins.
type Options struct {
	Logger *slog.Logger
	// Stderr, when set, receives the plugins' own log lines as JSON
	// records; when nil they go to Logger. Either way a plugin's text is a
	// field of a record, never a line of its own.
	Stderr io.Writer
	// Self is the binary re-executed for built-ins; os.Executable when "".
	Self string
	// Observer receives plugin call and restart events; none when nil.
	Observer Observer
	// Reuse is the host a reload replaces: a pool of it whose plugin,
	// settings and configuration are unchanged is shared instead of
	// started again, and stops with the last host using it.
	Reuse *Host
}

// Observer is told of every plugin call and every replaced process, for
// metrics.
type Observer interface {
	PluginCall(plugin, outcome string, took time.Duration)
	PluginRestart(plugin, reason string)
}

type noObserver struct{}

func (noObserver) PluginCall(string, string, time.Duration) {}
func (noObserver) PluginRestart(string, string)             {}

// Start configures every spec and starts its processes (or, for isolation
// "none", its in-process implementation). Problems with a plugin's block are
// HCL diagnostics; a plugin that cannot start is one too, on its block.
func Start(ctx context.Context, specs []Spec, opts Options) (*Host, hcl.Diagnostics) {
	opts = opts.withDefaults()
	h := &Host{digesters: map[string]stages.Digester{}, specs: map[string]*Spec{}}
	var diags hcl.Diagnostics
	var withExtractor []*Spec
	extractors := map[string]stages.Extractor{}
	for i := range specs {
		s := &specs[i]
		started, ds := h.startOne(ctx, s, opts)
		diags = append(diags, ds...)
		if started != nil {
			logStarted(opts.Logger, s)
			h.specs[s.Name] = s
		}
		if d, ok := started.(stages.Digester); ok && s.Digester {
			h.digesters[s.Name] = d
			continue
		}
		if ex, ok := started.(stages.Extractor); ok && !s.Digester {
			if s.PerCaller > 0 {
				ex = newAdmission(ex, s.Pool, s.PerCaller)
			}
			for _, ct := range s.ContentTypes {
				h.routes = append(h.routes, route{pattern: ct, name: s.Name, external: s.thirdParty(), ex: ex})
			}
			for _, sn := range s.sniffers {
				h.sniffs = addSniff(h.sniffs, sniffRoute{name: s.Name, sniffer: sn, ex: ex, external: s.thirdParty()})
			}
			withExtractor, extractors[s.Name] = append(withExtractor, s), ex
		}
	}
	h.contains = newContainerRoutes(withExtractor, func(s *Spec) stages.Extractor { return extractors[s.Name] })
	if diags.HasErrors() {
		h.Close()
		return nil, diags
	}
	return h, diags
}

// logStarted names a started plugin with what it announced, so a log shows
// which build of each plugin served.
func logStarted(log *slog.Logger, s *Spec) {
	path := "built-in"
	if s.External() {
		path = s.Command[0]
	}
	log.Info("plugin started", "plugin", s.Name, "kind", s.kind(), "version", s.Info.Version,
		"path", path, "sha256", s.SHA256, "content_types", s.ContentTypes, "sniff_rules", len(s.Info.Sniff),
		"container_rules", len(s.Info.Containers), "pool", s.Pool)
}

func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Self == "" {
		o.Self, _ = os.Executable()
	}
	if o.Observer == nil {
		o.Observer = noObserver{}
	}
	return o
}

func (h *Host) startOne(ctx context.Context, s *Spec, opts Options) (any, hcl.Diagnostics) {
	cfg, diags := configure(ctx, s, outputLogger(opts.Logger, opts.Stderr))
	if diags.HasErrors() {
		return nil, diags
	}
	if s.Isolation == config.IsolationNone {
		return inProcess{impl: s.Builtin, timeout: s.Timeout}, diags
	}
	key := poolKey(s, opts.Self, cfg)
	if pool := reusable(opts.Reuse, key); pool != nil {
		h.pools = append(h.pools, pool)
		return pool, diags
	}
	sockets, err := socketDir()
	if err != nil {
		return nil, append(diags, startError(s, err))
	}
	cache, err := cacheDir(s.Name)
	if err != nil {
		opts.Logger.Info("plugin runs without a cache directory", "plugin", s.Name, "reason", err)
	}
	l := &launcher{spec: s, self: opts.Self, config: cfg, sockets: sockets, cache: cache, log: outputLogger(opts.Logger, opts.Stderr)}
	pool, err := newPool(ctx, s, l, opts.Logger, opts.Observer)
	if err != nil {
		_ = os.RemoveAll(sockets)
		return nil, append(diags, startError(s, err))
	}
	pool.key = key
	h.pools = append(h.pools, pool)
	return pool, diags
}

// Configure checks a spec without keeping a process: an external binary's
// hash, the block against the plugin's schema, and the plugin's own
// Configure diagnostics. It returns the configuration to send each process.
func Configure(ctx context.Context, s *Spec) ([]byte, hcl.Diagnostics) {
	return configure(ctx, s, slog.Default())
}

// configure is Configure with the checking process's own output logged
// to log, the plugins' log of the command that runs them.
func configure(ctx context.Context, s *Spec, log *slog.Logger) ([]byte, hcl.Diagnostics) {
	impl := s.Builtin
	if s.External() {
		if err := checkBinary(s); err != nil {
			return nil, hcl.Diagnostics{startError(s, err)}
		}
		l := &launcher{spec: s, log: log}
		pr, err := l.start(ctx)
		if err != nil {
			return nil, hcl.Diagnostics{startError(s, err)}
		}
		defer pr.close() // healthy: asked to exit, so nothing logs its end as a crash
		impl = pr.impl()
	}
	if err := describe(ctx, s, impl); err != nil {
		return nil, hcl.Diagnostics{startError(s, err)}
	}
	cfg, diags := hclconfig.Decode(s.Body, s.Schema)
	if diags.HasErrors() {
		return nil, diags
	}
	for _, name := range envAttributes(s.Schema, cfg) {
		if !slices.Contains(s.Env, name) {
			s.Env = append(s.Env, name)
		}
	}
	pds, err := impl.Configure(ctx, cfg)
	if err != nil {
		return nil, hcl.Diagnostics{startError(s, fmt.Errorf("configure: %w", err))}
	}
	s.Warnings = nil
	for _, d := range pds {
		if d.Severity == sdk.SeverityWarning {
			s.Warnings = append(s.Warnings, strings.TrimSpace(d.Summary+": "+d.Detail))
		}
	}
	own := hclconfig.PluginDiagnostics(s.Name, s.Body, s.DefRange, pds)
	for _, d := range own {
		if d.Subject != nil && d.Subject.Filename == "" {
			// A built-in no block configures: its diagnostic points
			// nowhere, rather than at "line 0" of no file.
			d.Subject = nil
		}
	}
	return cfg, append(diags, own...)
}

func startError(s *Spec, err error) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot start extractor",
		Detail: err.Error(), Subject: s.DefRange.Ptr()}
}

// Route returns the extractor for a media type. The most specific pattern
// wins (exact, then structured suffix such as +json, then a wildcard such as
// text/*); between patterns of the same rank, a configured external plugin
// beats a built-in. Plan refuses two external plugins claiming one pattern,
// so no other tie is left.
func (h *Host) Route(mediaType string) (string, stages.Extractor, bool) {
	i := bestMatch(len(h.routes), func(i int) claim {
		return claim{h.routes[i].pattern, h.routes[i].external}
	}, mediaType)
	if i < 0 {
		return "", nil, false
	}
	return h.routes[i].name, h.routes[i].ex, true
}

// RouteSpec returns the name of the spec that would handle mediaType, by
// Route's precedence, so a caller can start just that plugin.
func RouteSpec(specs []Spec, mediaType string) (string, bool) {
	var claims []claim
	var names []string
	for _, s := range specs {
		if s.Digester {
			continue
		}
		for _, ct := range s.ContentTypes {
			claims = append(claims, claim{ct, s.thirdParty()})
			names = append(names, s.Name)
		}
	}
	i := bestMatch(len(claims), func(i int) claim { return claims[i] }, mediaType)
	if i < 0 {
		return "", false
	}
	return names[i], true
}

// claim is one media-type pattern an extractor handles.
type claim struct {
	pattern  string
	external bool
}

// bestMatch returns the index of the claim that handles mediaType: the
// most specific matching pattern, an external plugin's on a tie, else the
// first; -1 when none matches.
func bestMatch(n int, at func(int) claim, mediaType string) int {
	best, bestRank, bestExternal := -1, -1, false
	for i := range n {
		c := at(i)
		if !mediatype.Match(c.pattern, mediaType) {
			continue
		}
		rank := mediatype.Specificity(c.pattern)
		if rank > bestRank || (rank == bestRank && c.external && !bestExternal) {
			best, bestRank, bestExternal = i, rank, c.external
		}
	}
	return best
}

// CheckOptions checks a request's options against those the extractor
// declares in its schema.
func (h *Host) CheckOptions(extractor string, opts map[string]string) error {
	s, ok := h.specs[extractor]
	if !ok {
		return fmt.Errorf("no extractor %q", extractor)
	}
	err := s.Schema.CheckOptions(opts)
	var de *sdk.DocError
	if errors.As(err, &de) {
		// The caller chose the document, not the extractor: say which one
		// the options were checked against.
		return &sdk.DocError{Class: de.Class, Message: fmt.Sprintf("extractor %q: %s", extractor, de.Message)}
	}
	return err
}

// Declares reports whether the extractor declares the per-request option.
func (h *Host) Declares(extractor, option string) bool {
	s, ok := h.specs[extractor]
	if !ok {
		return false
	}
	return slices.ContainsFunc(s.Schema.Options, func(o sdk.Option) bool { return o.Name == option })
}

// Pools returns the host's process pools, for health reporting.
func (h *Host) Pools() []*Pool { return h.pools }

// Close stops the host's pools; a pool shared with a newer host (Reuse)
// stops with the last host using it.
func (h *Host) Close() {
	for _, p := range h.pools {
		p.release()
	}
}

// Digester returns the digester called name.
func (h *Host) Digester(name string) (stages.Digester, bool) {
	d, ok := h.digesters[name]
	return d, ok
}

// Upstream is a configured plugin that calls an outside service (an LLM's
// chat endpoint), which the health report probes. The plugin decodes its
// own block; this is what it says of the service.
type Upstream interface {
	// Upstream returns the service's base URL and the bearer key sent to
	// it ("" for none).
	Upstream() (url, key string)
}

// DigesterUpstreams returns, by digester name, the outside service each
// started built-in digester calls. An external plugin's block is its own,
// and it names no service here.
func (h *Host) DigesterUpstreams() map[string]Upstream {
	out := map[string]Upstream{}
	for name, s := range h.specs {
		if u, ok := s.Builtin.(Upstream); ok && s.Digester && !s.External() {
			out[name] = u
		}
	}
	return out
}

// inProcess runs a built-in without isolation (isolation = "none"), for
// development: a panic or hang here is sift's own.
type inProcess struct {
	impl    described
	timeout time.Duration
}

func (i inProcess) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	ctx, cancel := context.WithTimeout(ctx, i.timeout)
	defer cancel()
	return i.impl.(sdk.Extractor).Extract(ctx, req)
}

func (i inProcess) Digest(ctx context.Context, req *sdk.DigestRequest) (*sdk.DigestResult, error) {
	ctx, cancel := context.WithTimeout(ctx, i.timeout)
	defer cancel()
	return i.impl.(sdk.Digester).Digest(ctx, req)
}

var (
	_ stages.ExtractorRouter = (*Host)(nil)
	_ stages.OptionDeclarer  = (*Host)(nil)
	_ stages.DocumentRouter  = (*Host)(nil)
	_ stages.DigesterSet     = (*Host)(nil)
	_ stages.OptionChecker   = (*Host)(nil)
)
