package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/config"
	"github.com/siftd/sift/health"
	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/server"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/digest"
)

func serveCommand() *cobra.Command {
	var cfgPath string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Start sift: check the configuration, warm the plugins, listen",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serve(cmd, cfgPath)
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", config.DefaultFile, configHelp)
	return cmd
}

func serve(cmd *cobra.Command, cfgPath string) error {
	ctx := cmd.Context()
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	cfg, diags := loadConfig(cmd, cfgPath)
	if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
		return err
	}
	if err := report(cmd.ErrOrStderr(), cfg, app.CheckDevKey(cfg)); err != nil {
		return err
	}
	m := metrics.New()
	a, diags := app.Load(ctx, cfg, app.Options{Logger: log, Version: siftVersion(), Observer: m})
	if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
		return err
	}
	defer a.Close(context.WithoutCancel(ctx))

	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	policy, _ := app.GuardPolicy(cfg)
	api := server.New(server.Options{
		Chain: a.Chain, Callers: cfg.Callers, Logger: log, Health: healthReport(a), Metrics: m,
		ArchiveURL: app.FetchConfig(cfg).ArchiveURL,
		PublicURL:  cfg.PublicURL,
		Search:     search.New(cfg.Search, m),
		Digester:   searchDigester(a),
		Batch:      batchOptions(cfg, a),
		PreCheck:   func(u string) error { _, err := policy.PreCheck(u); return err },
	})
	if err := api.Start(ctx); err != nil {
		return err
	}
	// The batch stops after the HTTP server drained and before the
	// plugins and the store close: its targets in flight finish too.
	defer api.Close(context.WithoutCancel(ctx))
	srv := api.HTTPServer(server.DefaultTimeouts)
	drained := make(chan error, 1)
	go func() {
		<-ctx.Done()
		log.Info("draining in-flight requests", "within", drainTimeout.String())
		// In-flight requests finish; a fetch takes at most its total timeout.
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), drainTimeout)
		defer cancel()
		drained <- srv.Shutdown(shutdown)
	}()
	log.Info("sift listening", "addr", ln.Addr().String(), "stages", a.Chain.Names(), "version", siftVersion())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	// Serve returns as soon as Shutdown starts; the plugins and the store
	// must outlive the requests still running.
	if err := <-drained; err != nil {
		return fmt.Errorf("drain: %w", err)
	}
	return nil
}

// drainTimeout bounds how long SIGTERM waits for in-flight requests.
const drainTimeout = 60 * time.Second

// batchOptions turns on the batch API over the app's store, with the
// batch block's limits.
func batchOptions(cfg *config.Config, a *app.App) *server.BatchOptions {
	b := cfg.Batch
	if b.Disabled || a.Store == nil {
		return &server.BatchOptions{Disabled: true}
	}
	return &server.BatchOptions{Store: a.Store, Limits: batch.Limits{
		TargetsPerJob: b.TargetsPerJob, JobsPerCaller: b.JobsPerCaller, JobsTotal: b.JobsTotal,
		Workers: b.Workers, TTL: b.TTL, MaxBytes: b.MaxBytes, CallerBytes: b.MaxCallerBytes, ResultBytes: b.MaxResultBytes,
	}, Runner: batch.Options{ClaimLease: b.ClaimLease, Policy: app.GuardFingerprint(cfg)}}
}

// searchDigester is the digester `/v1/search` condenses its top results
// with: the default digester block, when there is one.
func searchDigester(a *app.App) stages.Digester {
	if d, ok := a.Host.Digester(digest.DefaultDigester); ok {
		return d
	}
	return nil
}

// Outside services are probed at most this often, however often /healthz
// is polled.
const (
	dependencyInterval = 5 * time.Second
	dependencyTimeout  = 2 * time.Second
)

// healthReport reports the plugin pools (every pool needs a live process), the
// database, and the reachability of outside services. An outside service
// that is down does not make sift unhealthy: digests fall back and context
// is skipped, so sift still answers.
func healthReport(a *app.App) server.Health {
	services := health.New(a.Dependencies(), dependencyInterval, dependencyTimeout)
	return func() (bool, any) {
		type pool struct {
			Name string `json:"name"`
			Live int    `json:"live"`
			Size int    `json:"size"`
			// CannotRestart is set while the pool has no process and
			// starting one fails (its binary no longer matches its pin).
			CannotRestart bool `json:"cannot_restart,omitempty"`
		}
		ok, pools := true, []pool{}
		for _, p := range a.Host.Pools() {
			live := p.Size()
			pools = append(pools, pool{Name: p.Name(), Live: live, Size: p.Capacity(), CannotRestart: p.Failing() != nil})
			ok = ok && live > 0
		}
		detail := map[string]any{"plugins": pools}
		if svc := services.Results(context.Background()); len(svc) > 0 {
			detail["services"] = svc
		}
		if a.Store != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			detail["database"] = "ok"
			if err := a.Store.Ping(ctx); err != nil {
				// /healthz answers anyone: the driver's error names the
				// database's address and user.
				ok, detail["database"] = false, stages.ErrStorage.Error()
			}
		}
		return ok, detail
	}
}
