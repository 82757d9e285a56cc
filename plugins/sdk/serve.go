package sdk

import (
	"io"
	"os"
	"runtime/debug"

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
// process (none when limit is 0). A soft limit makes the GC work harder
// before the host's hard rlimit would kill the process. Below it the
// memory is the plugin's to use: collecting at 5× the live heap instead of
// 2× cut the CPU a page costs the html extractor, and sift serve's cache
// misses went from 97–112 to 122–142 pages/s on two cores (peak RSS 103 →
// 217 MB a process, under its 512 MiB). A GOGC the plugin's environment
// sets wins.
func limitMemory(limit int, gogcSet bool) {
	if limit <= 0 {
		return
	}
	debug.SetMemoryLimit(int64(limit) * 8 / 10)
	if !gogcSet {
		debug.SetGCPercent(gcPercentUnderLimit)
	}
}

// newLogger is the plugin's logger: JSON entries on w, which the host reads
// with their levels; warnings and errors only, as the host logs no less.
func newLogger(w io.Writer) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Name: "plugin", Output: w, Level: hclog.Warn, JSONFormat: true})
}
