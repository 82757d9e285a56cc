// Package app assembles sift from its configuration: the plugin host, the
// stage chain and the checks `validate` and `serve` share.
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
	"github.com/siftd/sift/honcho"
	"github.com/siftd/sift/plugins/builtin"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/cache"
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
}

// Options tune Load.
type Options struct {
	Logger *slog.Logger
	// PluginStderr receives plugin log lines.
	PluginStderr io.Writer
	// Only, when set, starts just the extractors it names.
	Only []string
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
}

// defaultStages is the chain used when the configuration lists none.
var defaultStages = []string{"guard", "fetch", "extract"}

// Check runs every start-up check `serve` runs, without keeping processes:
// the development key's exposure, the plugins' blocks and the stage chain
// (with the digesters the file declares). `sift validate` is this.
func Check(ctx context.Context, cfg *config.Config) hcl.Diagnostics {
	diags := CheckDevKey(cfg)
	specs, ds := plan(ctx, cfg, nil)
	diags = append(diags, ds...)
	for i := range specs {
		_, ds := host.Configure(ctx, &specs[i])
		diags = append(diags, ds...)
	}
	_, ds = stages.Build(chainBlocks(cfg), kinds.Registry(),
		stages.Deps{Logger: slog.Default(), Digesters: declaredDigesters(cfg.Digesters)})
	return append(diags, ds...)
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

// Load checks cfg and starts its plugins and chain.
func Load(ctx context.Context, cfg *config.Config, opts Options) (*App, hcl.Diagnostics) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	specs, diags := plan(ctx, cfg, opts.Extractors)
	if diags.HasErrors() {
		return nil, diags
	}
	specs = only(specs, opts.Only)
	h, ds := host.Start(ctx, specs, host.Options{Logger: opts.Logger, Stderr: opts.PluginStderr, Observer: opts.Observer})
	diags = append(diags, ds...)
	if diags.HasErrors() {
		return nil, diags
	}
	a := &App{Config: cfg, Host: h}
	policy, _ := GuardPolicy(cfg) // its diagnostics come from the guard stage's own decoding
	deps := stages.Deps{
		Logger:     opts.Logger,
		Extractors: h,
		Digesters:  h,
		Guard:      guard.NewChecker(policy, resolverOr(opts.Resolver)),
		UserAgent:  "sift/" + opts.Version,
	}
	if cfg.Context != nil {
		// The URL was checked by config; New cannot fail on it.
		client, _ := honcho.New(cfg.Context.URL, cfg.Context.Key, cfg.Context.Timeout)
		deps.Context = workspace.Honcho{Client: client, Limit: cfg.Context.Limit}
	}
	budget, cached := cacheBudget(cfg)
	if cached || !cfg.Batch.Disabled {
		st, err := store.Open(ctx, cfg.Store, cfg.DataDir)
		if err != nil {
			h.Close()
			return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot open the store", Detail: err.Error()})
		}
		a.Store = st
		for _, w := range st.Warnings() {
			opts.Logger.Warn(w)
		}
		if cached {
			deps.Cache = st.CacheTable(budget)
		}
	}
	chain, ds := stages.Build(chainBlocks(cfg), kinds.Registry(), deps)
	diags = append(diags, ds...)
	if diags.HasErrors() {
		_ = a.Close(ctx)
		return nil, diags
	}
	a.Chain = chain
	return a, diags
}

func resolverOr(r *net.Resolver) *net.Resolver {
	if r == nil {
		return net.DefaultResolver
	}
	return r
}

// cacheBudget returns the largest byte budget of the chain's cache stages,
// and whether there is one.
func cacheBudget(cfg *config.Config) (int64, bool) {
	var budget int64
	found := false
	for _, st := range chainBlocks(cfg) {
		if st.Kind == "cache" {
			budget, found = max(budget, cache.MaxBytes(st.Body)), true
		}
	}
	return budget, found
}

// Close stops the chain, the plugins and the store.
func (a *App) Close(ctx context.Context) error {
	var errs []error
	if a.Chain != nil {
		errs = append(errs, a.Chain.Close(ctx))
	}
	a.Host.Close()
	if a.Store != nil {
		errs = append(errs, a.Store.Close())
	}
	return errors.Join(errs...)
}

// GuardPolicy returns the policy of the configuration's guard stage, or
// the default policy when the chain has none.
func GuardPolicy(cfg *config.Config) (*guard.Policy, hcl.Diagnostics) {
	for _, st := range chainBlocks(cfg) {
		if st.Kind == "guard" {
			c, diags := guardstage.Decode(st.Body)
			return c.Policy(), diags
		}
	}
	return guard.DefaultPolicy(), nil
}

// GuardFingerprint fingerprints the guard policy cfg applies, whatever the
// order its lists are written in: instances sharing a batch queue run only
// the jobs accepted under the same one.
func GuardFingerprint(cfg *config.Config) string {
	p, _ := GuardPolicy(cfg)
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

// FetchConfig returns the decoded block of the chain's fetch stage, or the
// defaults.
func FetchConfig(cfg *config.Config) fetch.Config {
	for _, st := range chainBlocks(cfg) {
		if st.Kind == "fetch" {
			c, _ := fetch.Decode(st.Body)
			return c
		}
	}
	c, _ := fetch.Decode(hcl.EmptyBody())
	return c
}

// Plan returns the extractors cfg runs, with their content types.
func Plan(ctx context.Context, cfg *config.Config) ([]host.Spec, hcl.Diagnostics) {
	return plan(ctx, cfg, nil)
}

func plan(ctx context.Context, cfg *config.Config, extra host.Builtins) ([]host.Spec, hcl.Diagnostics) {
	builtins := builtin.Extractors()
	maps.Copy(builtins, extra)
	specs, diags := host.Plan(ctx, cfg.Extractors, builtins, builtin.Companions(), maxMessage(cfg))
	digesters, ds := host.PlanDigesters(cfg.Digesters, builtin.Digesters(), maxMessage(cfg))
	return append(specs, digesters...), append(diags, ds...)
}

// maxMessage sizes plugin messages from the fetch body cap: a request
// carries at most one body, a reply at most about as much again.
func maxMessage(cfg *config.Config) int {
	return int(2*FetchConfig(cfg).MaxBody + 1<<20)
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
