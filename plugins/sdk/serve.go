package sdk

import (
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

// gcPercentUnderLimit is the GC target of a plugin process that has a
// memory limit (see Serve).
const gcPercentUnderLimit = 400

// ServeConfig names the implementations a plugin process serves. Set one or
// both.
type ServeConfig struct {
	Extractor Extractor
	Digester  Digester
}

// Serve runs the plugin until the host closes it. It never returns normally.
func Serve(cfg ServeConfig) {
	maxMsg := envBytes(EnvMaxMessage, DefaultMaxMessage)
	limitMemory(envBytes(EnvMemoryLimit, 0), os.Getenv("GOGC") != "")
	nameProcess(filepath.Base(os.Args[0]))
	outliveStop()
	// The logger writes to stderr as it is now: go-plugin replaces
	// os.Stderr with a pipe of its own once it serves.
	log := newLogger(os.Stderr)
	sets := map[int]plugin.PluginSet{ProtocolVersion: {}}
	if cfg.Extractor != nil {
		sets[ProtocolVersion][KindExtractor] = &ExtractorPlugin{Impl: cfg.Extractor, log: log}
	}
	if cfg.Digester != nil {
		sets[ProtocolVersion][KindDigester] = &DigesterPlugin{Impl: cfg.Digester, log: log}
	}
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: sets,
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			opts = append(opts, grpc.MaxRecvMsgSize(maxMsg), grpc.MaxSendMsgSize(maxMsg))
			return grpc.NewServer(opts...)
		},
		Logger: log,
	})
}

// limitMemory fits the Go runtime to the memory limit the host gives the
// process (none when limit is 0), which the host enforces as RLIMIT_DATA.
// That counts every range the heap has ever mapped, so the soft limit sits
// at half of it: under it the GC lets the heap grow to 5× what is live
// (GOGC=400, unless the plugin's environment sets GOGC), which cuts the
// CPU a page costs the html extractor, and past it works harder. Over
// WCXB's pages, 8 clients of sift serve for 30 s (2026-12-02): 44.6 pages/s
// with Go's defaults and a soft limit at 80% (VmData 270 MB of the 512 MiB
// cap), 57.9 at GOGC=400 with 80% (VmData 483 MB: too near), 52.2 at
// GOGC=400 with half (VmData 396 MB).
func limitMemory(limit int, gogcSet bool) {
	if limit <= 0 {
		return
	}
	debug.SetMemoryLimit(int64(limit) / 2)
	if !gogcSet {
		debug.SetGCPercent(gcPercentUnderLimit)
	}
}

// outliveStop keeps the process serving through a SIGTERM, as go-plugin
// keeps it through a SIGINT: the host ends its plugins itself. A service's
// stop (systemd's KillMode=control-group, a kill of the process group)
// signals the host and its plugins at once; the host then finishes the
// requests in flight, which need their plugins, and closes its pools. The
// host's death ends the plugin still (Linux's parent-death signal is a
// SIGKILL). The signal is caught, not ignored, so the programs a plugin
// runs (a converter) start with SIGTERM's default.
func outliveStop() {
	stops := make(chan os.Signal, 1)
	signal.Notify(stops, syscall.SIGTERM)
	go func() {
		for range stops {
		}
	}()
}

// nameProcess gives the process the name ps and top show, where the
// kernel has one (Linux): sift runs a plugin from the descriptor of the
// binary it hashed, /proc/self/fd/3, so the name would be "3". Without
// /proc nothing changes.
func nameProcess(name string) {
	_ = os.WriteFile("/proc/self/comm", []byte(name), 0)
}

// newLogger is the plugin's logger: JSON entries on w, which the host reads
// with their levels; warnings and errors only, as the host logs no less.
func newLogger(w io.Writer) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Name: "plugin", Output: w, Level: hclog.Warn, JSONFormat: true})
}
