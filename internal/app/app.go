// Package app assembles sift from its configuration: the plugin host, the
// stage chain, the store, search, the health report, and the checks
// `validate` and `serve` share. Everything one configuration needs is
// built here, once, into an App.
package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/health"
	"github.com/siftd/sift/honcho"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/plugins/builtin"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/cache"
	"github.com/siftd/sift/stages/digest"
	"github.com/siftd/sift/stages/fetch"
	guardstage "github.com/siftd/sift/stages/guard"
	"github.com/siftd/sift/stages/kinds"
	"github.com/siftd/sift/stages/workspace"
	"github.com/siftd/sift/store"
)

// App is a running configuration.
type App struct {
	Config *config.Config
	Host   *host.Host
	Chain  *stages.Chain
	Store  *store.Store // nil when neither a cache stage nor batch needs one
	// Search answers the search routes; nil when no backend is configured.
	Search *search.Service
	// Digester condenses the top results of a search with a digest: the
	// default digester block's, or nil.
	Digester stages.Digester
	// Policy is the guard stage's policy (the default one without a guard
	// stage); PreCheck applies it without resolving.
	Policy *guard.Policy
	// ArchiveURL is the fetch stage's archive for `recover`.
	ArchiveURL string

	ownStore bool // Close closes Store: Load opened it
	services *health.Monitor
}

// Options tune Load.
type Options struct {
	Logger *slog.Logger
	// PluginStderr receives plugin log lines.
	PluginStderr io.Writer
	// Only, when set, starts just the extractors it names.
	Only []string
	// NoStore opens no store: for a run that stores nothing, such as
	// `sift extract` of a local file, which would otherwise create the
	// data_dir's database wherever it runs.
	NoStore bool
	// Version goes into the User-Agent of every fetch.
	Version string
	// Observer receives plugin events (metrics); none when nil.
	Observer host.Observer
	// Resolver resolves the names the guard vets; the system's when nil.
	// Tests give it a loopback DNS server.
	Resolver *net.Resolver
	// Extractors are compiled-in extractors beside sift's own; one named
	// like a companion (html) replaces it, so tests can run it in-process.
	Extractors host.Builtins
	// Metrics observe search backends; none when nil.
	Metrics *metrics.Metrics
	// Reuse is the host of the App a reload replaces: its pools whose
	// blocks did not change are shared, not started again.
	Reuse *host.Host
	// Store, when set, is the store the App uses instead of opening one
	// (a reload keeps the running store); the App does not close it.
	Store *store.Store
}

// defaultStages is the chain used when the configuration lists none.
var defaultStages = []string{"guard", "fetch", "extract"}

// Check runs every start-up check `serve` runs, without keeping processes:
// CheckServe (the development key's exposure, a file without callers), the
// plugins' blocks and the stage chain (with the digesters the file
// declares). `sift validate` is this.
//
// Check also checks what the environment decides: the variables the file
// names (CheckEnvironment), and that each extractor the file has a block
// for runs within its memory limit (one process, one small document).
func Check(ctx context.Context, cfg *config.Config) hcl.Diagnostics {
	return check(ctx, cfg, true)
}

// CheckFile is Check without the environment: for a file checked away
// from where sift will run (`sift validate --no-environment`, the NixOS
// module's build step).
func CheckFile(ctx context.Context, cfg *config.Config) hcl.Diagnostics {
	return check(ctx, cfg, false)
}

func check(ctx context.Context, cfg *config.Config, environment bool) hcl.Diagnostics {
	diags := CheckFileServe(cfg)
	if environment {
		diags = append(diags, CheckEnvironment(cfg)...)
	}
	diags = append(diags, CheckChain(cfg)...)
	plugins, probes, chainDiags := checkPlugins(ctx, cfg, environment)
	diags = append(append(diags, plugins...), probes...)
	return append(diags, chainDiags...)
}

// ProbeMemory is Check's probe alone: each extractor the file has a block
// for, started once under its memory limit with a small document. A
// reload runs it before it swaps (Daemon.Reload checks the rest), so that a
// limit too small is refused every time, not only when its first process
// happens to die while the pool starts.
func ProbeMemory(ctx context.Context, cfg *config.Config) hcl.Diagnostics {
	_, probes, _ := checkPlugins(ctx, cfg, true)
	return probes
}

// checkPlugins plans and configures the file's plugins: their
// diagnostics, the memory probes of those that configured (when probe),
// and the chain's.
func checkPlugins(ctx context.Context, cfg *config.Config, probe bool) (plugins, probes, chainDiags hcl.Diagnostics) {
	chain, chainDiags := stages.Build(chainBlocks(cfg), kinds.Registry(),
		stages.Deps{Logger: slog.Default(), Digesters: declaredDigesters(cfg.Digesters)})
	specs, plugins := plan(ctx, cfg, nil, fetchConfig(chain).MaxBody, slog.Default())
	for i := range specs {
		pcfg, ds := host.Configure(ctx, &specs[i])
		plugins = append(plugins, ds...)
		if probe && !ds.HasErrors() {
			probes = append(probes, probeMemory(ctx, &specs[i], pcfg)...)
		}
	}
	return plugins, probes, chainDiags
}

// declaredDigesters answers for the digester blocks of a file, without
// starting them: enough for the digest stage to check the name it uses.
type declaredDigesters []config.Plugin

// Digester reports whether a block declares name; the digester itself is
// nil, as Check runs nothing.
func (d declaredDigesters) Digester(name string) (stages.Digester, bool) {
	for _, p := range d {
		if p.Name == name {
			return nil, true
		}
	}
	return nil, false
}

// Load checks cfg and starts its plugins and chain. The chain is built
// first, each stage decoding its own block once; what the rest needs of
// a block (fetch's body cap sizes the plugin messages, the cache stages'
// budgets the store's table, the guard's policy the batch pre-check) is
// read from the built stages.
func Load(ctx context.Context, cfg *config.Config, opts Options) (*App, hcl.Diagnostics) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	late := &bindings{declared: declaredDigesters(cfg.Digesters)}
	caches := &cacheViews{}
	deps := stages.Deps{
		Logger:     opts.Logger,
		Extractors: late,
		Digesters:  late,
		Cache:      caches,
		Resolver:   opts.Resolver,
		UserAgent:  "sift/" + opts.Version,
		Shape:      shape(cfg),
	}
	if cfg.Context != nil {
		// The URL was checked by config; New cannot fail on it.
		client, _ := honcho.New(cfg.Context.URL, cfg.Context.Key, cfg.Context.Timeout)
		deps.Context = workspace.Honcho{Client: client, Limit: cfg.Context.Limit}
	}
	chain, chainDiags := stages.Build(chainBlocks(cfg), kinds.Registry(), deps)
	fetchCfg := fetchConfig(chain)
	specs, diags := plan(ctx, cfg, opts.Extractors, fetchCfg.MaxBody, opts.Logger)
	diags = append(diags, CheckChain(cfg)...)
	if diags = append(diags, chainDiags...); diags.HasErrors() {
		closeChain(ctx, chain)
		return nil, diags
	}
	specs = only(specs, opts.Only)
	h, ds := host.Start(ctx, specs, host.Options{Logger: opts.Logger, Stderr: opts.PluginStderr, Observer: opts.Observer, Reuse: opts.Reuse})
	if diags = append(diags, ds...); diags.HasErrors() {
		closeChain(ctx, chain)
		return nil, diags
	}
	late.host = h
	a := &App{Config: cfg, Host: h, Chain: chain, Policy: guardPolicy(chain), ArchiveURL: fetchCfg.ArchiveURL}
	budget, cached := cacheBudget(chain)
	if (cached || !cfg.Batch.Disabled) && !opts.NoStore {
		st := opts.Store
		if st == nil {
			var err error
			if st, err = store.Open(ctx, cfg.Store, cfg.DataDir); err != nil {
				_ = a.Close(ctx)
				return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot open the store", Detail: err.Error()})
			}
			a.ownStore = true
			st.SetLogger(opts.Logger)
			for _, w := range st.Warnings() {
				opts.Logger.Warn(w)
			}
		}
		a.Store = st
		st.SetMinFree(cacheMinFree(chain))
		if cached {
			table := st.CacheTableIn(budget, cacheMemory(chain, budget), restrictedShare(chain, cfg.Callers))
			positions := CacheStages(cfg)
			indexes := make([]int, len(positions))
			for i, pos := range positions {
				indexes[i] = pos - 1
			}
			tags := cacheTags(chain)
			table.SetTags(tags)
			if a.ownStore {
				retireCache(ctx, st, tags, opts.Logger)
			}
			caches.bind(table, indexes)
			if w, ok := opts.Observer.(cacheWatcher); ok {
				w.WatchCache(cacheStats(table, positions))
			}
		}
	}
	if w, ok := opts.Observer.(cacheWatcher); ok && !cached {
		w.WatchCache(nil) // a reload may have dropped the cache stages
	}
	a.Search = search.New(cfg.Search, searchObserver(opts.Metrics))
	if d, ok := h.Digester(digest.DefaultDigester); ok {
		a.Digester = d
	}
	a.services = health.New(a.Dependencies(), dependencyInterval, dependencyTimeout)
	return a, diags
}

func closeChain(ctx context.Context, c *stages.Chain) {
	if c != nil {
		_ = c.Close(ctx)
	}
}

// fetchConfig is the chain's fetch stage's block, or the defaults.
func fetchConfig(c *stages.Chain) fetch.Config {
	if c != nil {
		if st, ok := c.Stage("fetch").(*fetch.Stage); ok {
			return st.Config()
		}
	}
	return fetch.DefaultConfig()
}

// guardPolicy is the chain's guard stage's policy, or the default one.
func guardPolicy(c *stages.Chain) *guard.Policy {
	if st, ok := c.Stage("guard").(*guardstage.Stage); ok {
		return st.Policy()
	}
	return guard.DefaultPolicy()
}

// cacheBudget returns the largest byte budget of the chain's cache stages,
// and whether there is one.
func cacheBudget(c *stages.Chain) (int64, bool) {
	var budget int64
	found := false
	for _, st := range c.StagesOf("cache") {
		if cs, ok := st.(*cache.Stage); ok {
			budget, found = max(budget, cs.MaxBytes()), true
		}
	}
	return budget, found
}

// cacheMemory is what the cache keeps in memory: the largest memory a
// cache block sets, else the default for budget.
func cacheMemory(c *stages.Chain, budget int64) int64 {
	var memory int64
	for _, st := range c.StagesOf("cache") {
		if cs, ok := st.(*cache.Stage); ok {
			memory = max(memory, cs.Memory())
		}
	}
	if memory == 0 {
		return store.DefaultMemory(budget)
	}
	return memory
}

// cacheTags are the chain's cache stages' tags, by index.
func cacheTags(c *stages.Chain) map[int]string {
	tags := map[int]string{}
	for _, st := range c.StagesOf("cache") {
		if cs, ok := st.(*cache.Stage); ok {
			tags[cs.Index()] = cs.Tag()
		}
	}
	return tags
}

// retireCache takes out of the cache, at start, the entries no stage will
// read: on SQLite (this process's alone) those of no tag of this chain;
// on a shared PostgreSQL, whose other instances may run another
// configuration, those of an older build only. It says how many, and
// their snapshots are deleted in the background.
func retireCache(ctx context.Context, st *store.Store, tags map[int]string, log *slog.Logger) {
	current := map[string]bool{}
	for _, t := range tags {
		current[t] = true
	}
	keep := func(tag string) bool { return current[tag] }
	if st.Shared() {
		keep = cache.SameBuild
	}
	r, err := st.RetireCache(ctx, keep)
	if err != nil {
		log.Warn("cache entries of an older build or configuration not retired: they count against max_bytes until evicted", "err", err)
		return
	}
	if r.Entries > 0 {
		log.Info("cache entries of an older build or another configuration will not be read: taken out of max_bytes, their snapshots deleted in the background",
			"entries", r.Entries, "bytes", r.Bytes)
	}
	st.PurgeInBackground(log)
}

// cacheMinFree is the free space data_dir's disk keeps, below which the
// cache stores nothing: the largest min_free a cache block sets, else
// cache.DefaultMinFree; 0 without a cache stage, or when every block that
// sets one sets 0.
func cacheMinFree(c *stages.Chain) int64 {
	minFree, set, found := int64(0), false, false
	for _, st := range c.StagesOf("cache") {
		if cs, ok := st.(*cache.Stage); ok {
			found = true
			if n, ok := cs.MinFree(); ok {
				minFree, set = max(minFree, n), true
			}
		}
	}
	if found && !set {
		return cache.DefaultMinFree
	}
	return minFree
}

// restrictedShare is the part of the cache's budget restricted callers'
// entries hold at most: the smallest restricted_share a cache block sets,
// else store.DefaultRestrictedShare when a caller is restricted, and 0
// when none is, so that the whole budget is the others'.
func restrictedShare(c *stages.Chain, callers []config.Caller) float64 {
	share, set := 1.0, false
	for _, st := range c.StagesOf("cache") {
		if cs, ok := st.(*cache.Stage); ok {
			if s, ok := cs.RestrictedShare(); ok {
				share, set = min(share, s), true
			}
		}
	}
	if set {
		return share
	}
	for _, c := range callers {
		if c.Restricted {
			return store.DefaultRestrictedShare
		}
	}
	return 0
}

// searchObserver is m as search's observer; none when m is nil.
func searchObserver(m *metrics.Metrics) search.Observer {
	if m == nil {
		return nil
	}
	return m
}

// PreCheck is the guard's check of rawURL without resolution, run on
// every batch target at submit.
func (a *App) PreCheck(rawURL string) error {
	_, err := a.Policy.PreCheck(rawURL)
	return err
}

// OwnsStore reports whether Close closes the store: Load opened it rather
// than being given one.
func (a *App) OwnsStore() bool { return a.ownStore }

// KeepStore makes the store outlive the App: its new owner closes it.
func (a *App) KeepStore() { a.ownStore = false }

// Close stops the chain, the plugins and the store.
func (a *App) Close(ctx context.Context) error {
	var errs []error
	if a.Chain != nil {
		errs = append(errs, a.Chain.Close(ctx))
	}
	a.Host.Close()
	if a.Store != nil && a.ownStore {
		errs = append(errs, a.Store.Close())
	}
	return errors.Join(errs...)
}

// Plan returns the extractors cfg runs, with their content types, for
// routing a document before Load starts its extractor; their messages are
// sized for the default body cap.
func Plan(ctx context.Context, cfg *config.Config) ([]host.Spec, hcl.Diagnostics) {
	return plan(ctx, cfg, nil, fetch.DefaultMaxBody, slog.Default())
}

// plan warns of development overrides on log, the log of the command that
// runs the plugins, so the warning is a record of its own in a JSON log.
func plan(ctx context.Context, cfg *config.Config, extra host.Builtins, maxBody int64, log *slog.Logger) ([]host.Spec, hcl.Diagnostics) {
	if diags := ApplyDevOverrides(cfg, log); diags.HasErrors() {
		return nil, diags
	}
	builtins := builtin.Extractors()
	maps.Copy(builtins, extra)
	specs, diags := host.Plan(ctx, cfg.Extractors, builtins, builtin.Companions(), maxMessage(maxBody))
	if extra != nil {
		inProcessUnconfigured(specs, cfg.Extractors)
	}
	diags = append(diags, host.FitMemory(specs, maxBody)...)
	digesters, ds := host.PlanDigesters(cfg.Digesters, builtin.Digesters(), maxMessage(maxBody))
	return append(specs, digesters...), append(diags, ds...)
}

// inProcessUnconfigured runs in-process the compiled-in built-ins that no
// block configures, for a binary that embeds sift with extractors of its
// own (a test's): it is not sift, so it cannot serve `sift plugin NAME` to
// a subprocess, and a built-in added to sift must not stall it until the
// plugin's start times out.
func inProcessUnconfigured(specs []host.Spec, blocks []config.Plugin) {
	configured := map[string]bool{}
	for _, b := range blocks {
		configured[b.Name] = true
	}
	for i := range specs {
		if s := &specs[i]; !s.Digester && !s.External() && !configured[s.Name] {
			s.Isolation = config.IsolationNone
		}
	}
}

// maxMessage sizes plugin messages from the fetch body cap: a request
// carries at most one body, a reply at most about as much again.
func maxMessage(maxBody int64) int {
	return int(2*maxBody + 1<<20)
}

func chainBlocks(cfg *config.Config) []config.Stage {
	if len(cfg.Stages) > 0 {
		return cfg.Stages
	}
	out := make([]config.Stage, len(defaultStages))
	for i, k := range defaultStages {
		out[i] = config.Stage{Kind: k, Body: hcl.EmptyBody()}
	}
	return out
}

func only(specs []host.Spec, names []string) []host.Spec {
	if len(names) == 0 {
		return specs
	}
	var out []host.Spec
	for _, s := range specs {
		for _, n := range names {
			if s.Name == n {
				out = append(out, s)
			}
		}
	}
	return out
}

// WriteDiagnostics prints diagnostics with file, line and source context.
func WriteDiagnostics(w io.Writer, cfg *config.Config, diags hcl.Diagnostics) error {
	var files map[string]*hcl.File
	if cfg != nil {
		files = cfg.Files
	}
	if err := hcl.NewDiagnosticTextWriter(w, files, 0, false).WriteDiagnostics(diags); err != nil {
		return fmt.Errorf("write diagnostics: %w", err)
	}
	return nil
}

// PolicyFingerprint fingerprints a guard policy, whatever the order its
// lists are written in: instances sharing a batch queue run only the jobs
// accepted under the same one.
func PolicyFingerprint(p *guard.Policy) string {
	ports := slices.Clone(p.AllowPorts)
	slices.Sort(ports)
	hosts := slices.Clone(p.AllowHosts)
	slices.Sort(hosts)
	cidrs := make([]string, len(p.AllowCIDRs))
	for i, c := range p.AllowCIDRs {
		cidrs[i] = c.Masked().String()
	}
	slices.Sort(cidrs)
	h := sha256.New()
	fmt.Fprintf(h, "guard\x00%v\x00%q\x00%q", ports, hosts, cidrs)
	return hex.EncodeToString(h.Sum(nil))
}
