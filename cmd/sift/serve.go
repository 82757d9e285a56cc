package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/internal/daemon"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/server"
)

func serveCommand() *cobra.Command {
	var cfgPath string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Start sift: check the configuration, warm the plugins, listen",
		Long: "Start sift: check the configuration, warm the plugins, listen.\n\n" +
			"SIGHUP reloads the configuration file: new requests run on it, requests in flight finish\n" +
			"on the old one; a file with errors (an empty file, one without callers, one that lost its\n" +
			"pipeline block) is logged and the running configuration kept.\n" +
			"SIGINT and SIGTERM drain the requests in flight (60 s at most) and stop.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serve(cmd, cfgPath)
		},
	}
	cmd.Flags().StringVar(&cfgPath, "config", config.DefaultFile, configHelp)
	cmd.Flags().String("listen", "", "listen on this host:port instead of the configuration's listen (also "+listenEnv+")")
	return cmd
}

func serve(cmd *cobra.Command, cfgPath string) error {
	// Registered first: a SIGHUP during start-up must not kill sift.
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGHUP, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)

	ctx := cmd.Context()
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	cfg, diags := loadServeConfig(cmd, cfgPath)
	if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
		return err
	}
	if err := report(cmd.ErrOrStderr(), cfg, app.CheckServe(cfg)); err != nil {
		return err
	}
	m := metrics.New()
	d, diags, stopped := start(ctx, cfg, daemon.Options{Logger: log, Version: siftVersion(), Revision: siftRevision(), Metrics: m})
	if stopped != nil {
		// The plugins it was starting got the signal too: their failures
		// are the stop's, not the file's.
		if d != nil {
			_ = d.Close(context.WithoutCancel(ctx))
		}
		log.Info("start-up interrupted by a signal: stopping", "signal", stopped.String())
		return nil
	}
	if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
		return err
	}
	// The batch stops after the HTTP server drained and before the
	// plugins and the store close: its targets in flight finish too.
	defer d.Close(context.WithoutCancel(ctx))

	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := server.NewHTTPServer(d, server.DefaultTimeouts)
	loads := &reloadRecorder{dataDir: cfg.DataDir, log: log}
	loads.record(true, "")
	drained := make(chan error, 1)
	go func() {
		handleSignals(ctx, cmd, cfgPath, d, m, loads, signals, log)
		inFlight, began := d.InFlight(), time.Now()
		log.Info("draining in-flight requests", "in_flight", inFlight, "within", drainTimeout.String())
		// In-flight requests finish; a fetch takes at most its total timeout.
		shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), drainTimeout)
		defer cancel()
		err := srv.Shutdown(shutdown)
		if err == nil {
			log.Info("stopped: in-flight requests drained", "drained", inFlight, "took", time.Since(began).Round(time.Millisecond).String())
		}
		drained <- err
	}()
	log.Info("sift listening", "addr", ln.Addr().String(), "stages", d.Stages(), "version", siftVersion())
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

// start builds the daemon and reports a SIGINT or SIGTERM that arrived
// meanwhile, so that serve then stops with exit 0 rather than reporting
// the plugins the signal killed (a stop of the whole unit reaches them
// too) as a broken configuration. The start is not cut short: the
// daemon's context outlives it (its pools and batch workers run on it).
// A SIGHUP during start-up waits in serve's own channel and reloads once
// started.
func start(ctx context.Context, cfg *config.Config, opts daemon.Options) (*daemon.Daemon, hcl.Diagnostics, os.Signal) {
	stops := make(chan os.Signal, 1)
	signal.Notify(stops, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stops)
	d, diags := daemon.New(ctx, cfg, opts)
	select {
	case sig := <-stops:
		return d, diags, sig
	default:
		return d, diags, nil
	}
}

// handleSignals logs every signal sift serve handles and reloads on
// SIGHUP; it returns when sift is to stop (SIGINT, SIGTERM, or ctx done).
func handleSignals(ctx context.Context, cmd *cobra.Command, cfgPath string, d *daemon.Daemon, m *metrics.Metrics, loads *reloadRecorder, signals <-chan os.Signal, log *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			// The signal that ended ctx reached signals first.
			select {
			case sig := <-signals:
				log.Info("signal received: stopping", "signal", sig.String())
			default:
			}
			return
		case sig := <-signals:
			if sig != syscall.SIGHUP {
				log.Info("signal received: stopping", "signal", sig.String())
				return
			}
			log.Info("signal received: reloading the configuration", "signal", sig.String(), "config", cfgPath)
			ok, diagnostics := reload(ctx, cmd, cfgPath, d, log)
			m.ConfigLoaded(ok, time.Now())
			loads.record(ok, diagnostics)
		}
	}
}

// reload reads the configuration file again and swaps to it; a file with
// errors (an empty one, one without callers or that lost its pipeline
// block among them: Daemon.Reload) is logged at error level, naming the
// file, with its diagnostics, and the running one kept. It reports
// whether the file was taken, and the diagnostics of one refused.
func reload(ctx context.Context, cmd *cobra.Command, cfgPath string, d *daemon.Daemon, log *slog.Logger) (bool, string) {
	cfg, diags := loadServeConfig(cmd, cfgPath)
	if !diags.HasErrors() {
		diags = append(diags, app.ProbeMemory(ctx, cfg)...)
	}
	if !diags.HasErrors() {
		diags = append(diags, d.Reload(context.WithoutCancel(ctx), cfg)...)
	}
	var text bytes.Buffer
	if len(diags) > 0 {
		_ = app.WriteDiagnostics(&text, cfg, diags)
	}
	if diags.HasErrors() {
		log.Error("reload refused: the running configuration is kept", "config", cfgPath, "diagnostics", text.String())
		return false, text.String()
	}
	if text.Len() > 0 {
		log.Warn("reload warnings", "config", cfgPath, "diagnostics", text.String())
	}
	log.Info("configuration reloaded", "stages", d.Stages())
	return true, ""
}

// reloadRecorder numbers the configuration loads of this process and
// records each in data_dir for `sift reload`. data_dir changes only with a
// restart, so the start's is where every load is recorded.
type reloadRecorder struct {
	dataDir string
	log     *slog.Logger
	seq     int
}

func (r *reloadRecorder) record(ok bool, diagnostics string) {
	st := reloadStatus{PID: os.Getpid(), Seq: r.seq, OK: ok, At: time.Now().UTC(), Diagnostics: diagnostics}
	r.seq++
	if err := writeReloadStatus(r.dataDir, st); err != nil {
		// The record of the previous load would be read as this one's
		// pending: removed (which needs no room), sift reload says at
		// once that the load went unrecorded.
		_ = os.Remove(filepath.Join(r.dataDir, reloadStatusFile))
		r.log.Warn("cannot record the configuration load for sift reload", "err", err)
	}
}

// drainTimeout bounds how long SIGTERM waits for in-flight requests.
const drainTimeout = 60 * time.Second
