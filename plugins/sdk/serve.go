package sdk

import (
	"io"
	"os"
	"runtime/debug"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

// ServeConfig names the implementations a plugin process serves. Set one or
// both.
type ServeConfig struct {
	Extractor Extractor
	Digester  Digester
}

// Serve runs the plugin until the host closes it. It never returns normally.
func Serve(cfg ServeConfig) {
	maxMsg := envBytes(EnvMaxMessage, DefaultMaxMessage)
	if limit := envBytes(EnvMemoryLimit, 0); limit > 0 {
		// A soft limit makes the GC work harder before the host's hard
		// rlimit would kill the process.
		debug.SetMemoryLimit(int64(limit) * 8 / 10)
	}
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

// newLogger is the plugin's logger: JSON entries on w, which the host reads
// with their levels; warnings and errors only, as the host logs no less.
func newLogger(w io.Writer) hclog.Logger {
	return hclog.New(&hclog.LoggerOptions{Name: "plugin", Output: w, Level: hclog.Warn, JSONFormat: true})
}
