// Package daemon is `sift serve` behind its listener: the application of
// the running configuration (internal/app) served by the HTTP API
// (server), and what outlives a configuration (the metrics, the store,
// the batch runner, the gates). Reload swaps to a new configuration while
// requests in flight finish on the old one.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/internal/batchtarget"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/server"
	"github.com/siftd/sift/store"
)

// Options configure a Daemon.
type Options struct {
	Logger *slog.Logger
	// Version goes into the User-Agent of every fetch; with Revision, the
	// VCS revision it was built from, it labels sift_build_info.
	Version  string
	Revision string
	// Metrics are recorded and served on /metrics; a new set when nil.
	Metrics *metrics.Metrics
	// Resolver resolves the names the guard vets; the system's when nil.
	Resolver *net.Resolver
	// Extractors are compiled-in extractors beside sift's own, as in
	// app.Options; tests run the HTML extractor in-process.
	Extractors host.Builtins
	// DrainTimeout bounds how long an old configuration waits for its
	// requests in flight before it is closed; server.DefaultTimeouts.Write
	// (no answer is written for longer) when 0.
	DrainTimeout time.Duration
}

// Daemon serves the API of the configuration loaded last.
type Daemon struct {
	opts Options
	log  *slog.Logger

	// What outlives a configuration: a reload keeps it.
	store  *store.Store   // nil when no configuration so far needed one
	runner *batch.Runner  // nil when batch is disabled
	gates  *service.Gates // shared, so a reload never doubles the fetch slots
	first  *config.Config // the settings only a restart changes

	cur     atomic.Pointer[generation]
	reload  sync.Mutex // one reload at a time
	old     sync.WaitGroup
	closing chan struct{} // closed by Close: old generations stop waiting
}

// New builds the application of cfg and the API over it, and starts the
// batch runner (which first fails the jobs a previous process left). The
// diagnostics are the app's; on errors the Daemon is nil.
func New(ctx context.Context, cfg *config.Config, opts Options) (*Daemon, hcl.Diagnostics) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Metrics == nil {
		opts.Metrics = metrics.New()
	}
	if opts.DrainTimeout <= 0 {
		opts.DrainTimeout = server.DefaultTimeouts.Write
	}
	d := &Daemon{opts: opts, log: opts.Logger, first: cfg, gates: service.NewGates(cfg.Gates, service.GateSizes{}, opts.Metrics), closing: make(chan struct{})}
	a, diags := d.load(ctx, cfg, nil)
	if diags.HasErrors() {
		return nil, diags
	}
	if !cfg.Batch.Disabled && d.store != nil {
		d.runner = batch.New(d.store, d.batchFetch, batch.Options{Limits: cfg.Batch.BatchLimits,
			ClaimLease: cfg.Batch.ClaimLease, Hooks: opts.Metrics.Batch, Logger: opts.Logger,
			Callers: service.BatchCallers(cfg.Callers), Policy: app.PolicyFingerprint(a.Policy)})
	}
	d.cur.Store(d.serve(a))
	opts.Metrics.SetBuild(opts.Version, opts.Revision, runtime.Version())
	opts.Metrics.ConfigLoaded(true, time.Now())
	if d.runner != nil {
		if err := d.runner.Start(ctx); err != nil {
			_ = a.Close(context.WithoutCancel(ctx))
			d.closeStore()
			return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot start the batch runner", Detail: err.Error()})
		}
	}
	return d, diags
}

// load builds the application of cfg over the daemon's store, sharing
// the unchanged plugin pools of reuse, and keeps the store it opened for
// the daemon's life.
func (d *Daemon) load(ctx context.Context, cfg *config.Config, reuse *host.Host) (*app.App, hcl.Diagnostics) {
	a, diags := app.Load(ctx, cfg, app.Options{Logger: d.log, Version: d.opts.Version, Observer: d.opts.Metrics,
		Metrics: d.opts.Metrics, Resolver: d.opts.Resolver, Store: d.store, Extractors: d.opts.Extractors, Reuse: reuse})
	if diags.HasErrors() {
		return nil, diags
	}
	if a.OwnsStore() {
		d.store = a.Store
		a.KeepStore()
	}
	return a, diags
}

// serve makes the API over a.
func (d *Daemon) serve(a *app.App) *generation {
	cfg := a.Config
	d.opts.Metrics.SetPlugins(poolNames(a))
	d.opts.Metrics.SetStages(a.Chain.Names())
	svc := service.New(service.Options{Chain: a.Chain, Callers: cfg.Callers, Gates: d.gates,
		Metrics: d.opts.Metrics, Logger: d.log, ArchiveURL: a.ArchiveURL, Search: a.Search, Digester: a.Digester})
	opts := server.Options{
		Service: svc, Logger: d.log, Health: a.Health, Metrics: d.opts.Metrics,
		PublicURL: cfg.PublicURL, Batch: d.runner, PreCheck: a.PreCheck, MetricsAccess: cfg.Metrics,
	}
	if a.Store != nil {
		opts.History = a.Store
	}
	api := server.New(opts)
	return newGeneration(a, api, batchtarget.New(svc, api.Firecrawl()))
}

// Stages lists the running chain's stage kinds.
func (d *Daemon) Stages() []string { return d.cur.Load().app.Chain.Names() }

// ServeHTTP serves a request on the configuration current when it
// arrived; a reload does not move it.
func (d *Daemon) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g := d.acquire()
	defer g.release()
	g.handler.ServeHTTP(w, r)
}

// InFlight is how many requests and batch targets the current
// configuration holds now.
func (d *Daemon) InFlight() int { return d.cur.Load().held() }

// batchFetch runs a batch target on the current configuration.
func (d *Daemon) batchFetch(ctx context.Context, c batch.Caller, t batch.Target) ([]byte, error) {
	g := d.acquire()
	defer g.release()
	return g.targets.Fetch(ctx, c, t)
}

// acquire returns the current generation, held until release.
func (d *Daemon) acquire() *generation {
	for {
		if g := d.cur.Load(); g.hold() {
			return g
		}
		// Retired between the load and the hold: the new one is stored.
	}
}

// Reload checks cfg, builds its application and swaps to it: new requests
// run on it, requests in flight finish on the old one, which is closed
// once they have. Settings only a restart changes keep their running
// values, with a warning each. A file serve would refuse at start (no
// caller, an empty file), or one that has lost the running pipeline
// block, is refused. On errors nothing changes.
func (d *Daemon) Reload(ctx context.Context, cfg *config.Config) hcl.Diagnostics {
	d.reload.Lock()
	defer d.reload.Unlock()
	diags := app.CheckServe(cfg)
	diags = append(diags, lostPipeline(d.cur.Load().app.Config, cfg)...)
	if diags.HasErrors() {
		return diags
	}
	for _, w := range restartOnly(d.first, cfg) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Needs a restart",
			Detail: w + " changes only when sift restarts; the running value is kept."})
	}
	keep(d.first, cfg)
	a, ds := d.load(ctx, cfg, d.cur.Load().app.Host)
	diags = append(diags, ds...)
	if diags.HasErrors() {
		return diags
	}
	if d.runner != nil {
		// Batch jobs accepted from now on are owned by the callers and
		// recorded under the guard of the new configuration.
		d.runner.SetIdentity(service.BatchCallers(cfg.Callers), app.PolicyFingerprint(a.Policy))
	}
	old := d.cur.Swap(d.serve(a))
	d.old.Go(func() { d.retire(old) })
	return diags
}

// retire closes an old generation once its requests are done, or after
// the drain timeout, past which no answer is still being written, or when
// the daemon closes.
func (d *Daemon) retire(g *generation) {
	drained := g.retire()
	select {
	case <-drained:
	case <-d.closing:
	case <-time.After(d.opts.DrainTimeout):
		d.log.Warn("closing the previous configuration with requests still in flight", "after", d.opts.DrainTimeout.String())
	}
	if err := g.app.Close(context.Background()); err != nil {
		d.log.Error("closing the previous configuration", "err", err)
	}
	d.log.Info("previous configuration closed")
}

// Close stops the batch runner (its targets in flight finish until ctx
// ends), then closes the current application, any old one still
// draining, and the store. The HTTP server has drained first: a request
// still running past its drain is not waited for.
func (d *Daemon) Close(ctx context.Context) error {
	var errs []error
	if d.runner != nil {
		errs = append(errs, d.runner.Close(ctx))
	}
	d.reload.Lock()
	defer d.reload.Unlock()
	close(d.closing)
	g := d.cur.Load()
	select {
	case <-g.retire():
	default:
		d.log.Warn("closing with requests still in flight")
	}
	errs = append(errs, g.app.Close(ctx))
	d.old.Wait()
	errs = append(errs, d.closeStore())
	return errors.Join(errs...)
}

func (d *Daemon) closeStore() error {
	if d.store == nil {
		return nil
	}
	if err := d.store.Close(); err != nil {
		return fmt.Errorf("close the store: %w", err)
	}
	return nil
}

// poolNames names the running plugin pools, whose series start at zero.
func poolNames(a *app.App) []string {
	var out []string
	for _, p := range a.Host.Pools() {
		out = append(out, p.Name())
	}
	return out
}
