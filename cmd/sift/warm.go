package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/internal/warm"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// defaultWarm is how long a warm extractor waits for the next call.
const defaultWarm = time.Minute

// warmDefault is --warm's default: $SIFT_EXTRACT_WARM when it holds a
// duration ("0" turns warm extractors off), else a minute.
func warmDefault() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("SIFT_EXTRACT_WARM")); err == nil && d >= 0 {
		return d
	}
	return defaultWarm
}

// warmCommand is the hidden `sift warm`, which `sift extract` starts in the
// background: it serves the extractors of one configuration on a socket
// until it has been idle for --idle.
func warmCommand() *cobra.Command {
	var socket, cfgPath string
	var idle time.Duration
	cmd := &cobra.Command{
		Use:    "warm",
		Short:  "Serve warm extractors to sift extract (started by sift extract)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, diags := loadConfig(cmd, cfgPath)
			if err := report(cmd.ErrOrStderr(), cfg, diags); err != nil {
				return err
			}
			ln, release, err := warm.Listen(socket)
			if errors.Is(err, warm.ErrRunning) {
				return nil
			}
			if err != nil {
				return err
			}
			defer release()
			ex, err := newWarmExtractors(cmd.Context(), cfg)
			if err != nil {
				_ = ln.Close()
				return err
			}
			defer ex.close()
			return warm.Serve(cmd.Context(), ln, ex.extract, idle)
		},
	}
	cmd.Flags().StringVar(&socket, "socket", "", "the Unix socket to serve")
	cmd.Flags().StringVar(&cfgPath, "config", config.DefaultFile, configHelp)
	cmd.Flags().DurationVar(&idle, "idle", defaultWarm, "exit after this long without a call")
	_ = cmd.MarkFlagRequired("socket")
	return cmd
}

// warmExtractors starts each extractor on its first document and keeps it.
type warmExtractors struct {
	ctx   context.Context
	cfg   *config.Config
	specs []host.Spec
	calls atomic.Int64

	mu   sync.Mutex
	apps map[string]*app.App
}

func newWarmExtractors(ctx context.Context, cfg *config.Config) (*warmExtractors, error) {
	specs, diags := app.Plan(ctx, cfg)
	if diags.HasErrors() {
		return nil, diags
	}
	return &warmExtractors{ctx: ctx, cfg: cfg, specs: specs, apps: map[string]*app.App{}}, nil
}

// extract runs one document. Every call is its own caller, so the pools'
// per-caller shares do not serialise independent `sift extract` runs; a
// pool with no free process is waited for, as an inline run would wait
// for a process to start.
func (w *warmExtractors) extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	ex, err := w.extractor(req.ContentType, req.URL, req.Body)
	if err != nil {
		return nil, err
	}
	share := fmt.Sprintf("extract/%d", w.calls.Add(1))
	for {
		res, err := stages.ExtractFor(ctx, ex, share, req)
		if !errors.Is(err, stages.ErrBusy) {
			return res, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (w *warmExtractors) extractor(mediaType, docURL string, body []byte) (stages.Extractor, error) {
	name, err := routeName(w.specs, mediaType, docURL, body)
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	a, ok := w.apps[name]
	if !ok {
		var diags hcl.Diagnostics
		a, diags = app.Load(w.ctx, w.cfg, app.Options{Only: []string{name}, PluginStderr: io.Discard})
		if diags.HasErrors() {
			return nil, diags
		}
		w.apps[name] = a
	}
	return routed(a, mediaType, docURL, body), nil
}

func (w *warmExtractors) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, a := range w.apps {
		_ = a.Close(context.WithoutCancel(w.ctx))
	}
}

// extractWarm hands req to the warm extractor for this binary, directory
// and configuration, starting one when none answers. An error wrapping
// warm.ErrUnreachable means the caller should extract inline instead.
func extractWarm(cmd *cobra.Command, f extractFlags, cfg *config.Config, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", warm.ErrUnreachable, err)
	}
	socket, err := warmSocket(cmd, self, f.config, cfg)
	if err != nil {
		return nil, warmRefused(cmd, err)
	}
	conn, err := warm.Dial(socket)
	if errors.Is(err, warm.ErrUntrusted) {
		return nil, warmRefused(cmd, err)
	}
	if err != nil {
		if conn, err = startWarm(cmd, self, f, socket); err != nil {
			return nil, fmt.Errorf("%w: %w", warm.ErrUnreachable, err)
		}
	}
	return warm.Call(cmd.Context(), conn, req)
}

// warmRefused turns err into an ErrUnreachable, warning first when it says a
// directory or socket was not fit to trust: someone may be trying to
// intercept the documents.
func warmRefused(cmd *cobra.Command, err error) error {
	if errors.Is(err, warm.ErrUntrusted) {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: no warm extractor, extracting inline: %v\n", err)
	}
	return fmt.Errorf("%w: %w", warm.ErrUnreachable, err)
}

// warmSocket names the socket of the warm extractor that serves exactly
// this binary, working directory and configuration: a rebuilt sift or an
// edited config.hcl gets a new one, and the old one idles out.
func warmSocket(cmd *cobra.Command, self, cfgPath string, cfg *config.Config) (string, error) {
	dir, err := warm.Dir()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fi, err := os.Stat(self)
	if err != nil {
		return "", err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%s\x00%s\x00%t\x00", self, fi.Size(), fi.ModTime().UnixNano(), cwd, cfgPath, cmd.Flags().Changed("config"))
	if src, err := os.ReadFile(cfgPath); err == nil {
		h.Write(src)
	}
	// A rebuilt plugin binary, or another development override, gets a
	// fresh warm extractor too, not the old build's answers.
	fmt.Fprintf(h, "%s\x00", os.Getenv(app.EnvDevOverrides))
	if cfg != nil {
		for _, b := range append(slices.Clone(cfg.Extractors), cfg.Digesters...) {
			if len(b.Command) == 0 {
				continue
			}
			if fi, err := os.Stat(b.Command[0]); err == nil {
				fmt.Fprintf(h, "%s\x00%d\x00%d\x00", b.Command[0], fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	return filepath.Join(dir, "extract-"+hex.EncodeToString(h.Sum(nil))[:16]+".sock"), nil
}

// startWarm starts `sift warm` in a session of its own, with no terminal
// and no inherited output, then waits for its socket.
func startWarm(cmd *cobra.Command, self string, f extractFlags, socket string) (net.Conn, error) {
	args := []string{"warm", "--socket", socket, "--idle", f.warm.String()}
	if cmd.Flags().Changed("config") {
		args = append(args, "--config", f.config)
	}
	srv := exec.Command(self, args...)
	detach(srv)
	if err := srv.Start(); err != nil {
		return nil, fmt.Errorf("start warm extractor: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		conn, err := warm.Dial(socket)
		if err == nil {
			return conn, nil
		}
		if errors.Is(err, warm.ErrUntrusted) {
			return nil, err
		}
		select {
		case err := <-exited:
			if err != nil {
				return nil, fmt.Errorf("warm extractor exited: %w", err)
			}
			// It found another warm extractor holding the socket, which
			// is about to listen if it does not already.
			exited = nil
		case <-cmd.Context().Done():
			return nil, cmd.Context().Err()
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return nil, errors.New("warm extractor did not listen within 5s")
		}
	}
}
