package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os/exec"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/siftd/sift/plugins/sdk"
)

// proc is one running plugin process.
type proc struct {
	client *plugin.Client
	cmd    *exec.Cmd
	ex     sdk.Extractor // set for extractors
	dg     sdk.Digester  // set for digesters
}

// launcher starts processes for one spec.
type launcher struct {
	spec   *Spec
	self   string // the sift binary, re-executed for built-ins
	config json.RawMessage
	log    *slog.Logger // receives the plugin's stderr, each entry as a field
}

func (l *launcher) command() *exec.Cmd {
	if l.spec.External() {
		return exec.Command(l.spec.Command[0], l.spec.Command[1:]...)
	}
	return exec.Command(l.self, "plugin", l.spec.Name)
}

// start launches one process, applies its memory limit and configures it.
func (l *launcher) start(ctx context.Context) (*proc, error) {
	cmd := l.command()
	dieWithParent(cmd)
	cmd.Env = pluginEnv(l.spec)
	cfg := &plugin.ClientConfig{
		HandshakeConfig:  sdk.Handshake,
		VersionedPlugins: sdk.PluginSets(nil, nil),
		Cmd:              cmd,
		SkipHostEnv:      true,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(l.spec.MaxMessage), grpc.MaxCallSendMsgSize(l.spec.MaxMessage))},
		Logger: pluginLogger(l.spec.Name, l.log),
	}
	if l.spec.External() {
		sum, err := hex.DecodeString(l.spec.SHA256)
		if err != nil {
			return nil, fmt.Errorf("sha256: %w", err)
		}
		cfg.SecureConfig = &plugin.SecureConfig{Checksum: sum, Hash: sha256.New()}
		cfg.AutoMTLS = true
	}
	client := plugin.NewClient(cfg)
	p, err := l.connect(ctx, client)
	if err != nil {
		client.Kill()
		return nil, err
	}
	p.cmd = cmd
	return p, nil
}

func (l *launcher) connect(ctx context.Context, client *plugin.Client) (*proc, error) {
	rpc, err := client.Client()
	if err != nil {
		return nil, fmt.Errorf("start: %w", explainStart(l.spec, err))
	}
	if rc := client.ReattachConfig(); rc != nil && l.spec.Memory > 0 {
		if err := limitMemory(rc.Pid, l.spec.Memory); err != nil {
			return nil, fmt.Errorf("memory limit: %w", err)
		}
	}
	raw, err := rpc.Dispense(l.spec.kind())
	if err != nil {
		return nil, fmt.Errorf("dispense: %w", err)
	}
	p := &proc{client: client}
	var impl described
	switch v := raw.(type) {
	case sdk.Extractor:
		p.ex, impl = v, v
	case sdk.Digester:
		p.dg, impl = v, v
	default:
		return nil, fmt.Errorf("dispense: got %T", raw)
	}
	if l.config != nil {
		diags, err := impl.Configure(ctx, l.config)
		if err != nil {
			return nil, fmt.Errorf("configure: %w", err)
		}
		if diags.HasErrors() {
			return nil, fmt.Errorf("configure: %s", diags.Error())
		}
	}
	return p, nil
}

// kill ends the process at once. A hung plugin ignores the graceful
// shutdown go-plugin tries first, so the OS process is killed before the
// client cleans up.
func (p *proc) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
	p.client.Kill()
}

// close asks the process to exit and waits for it; for healthy processes.
func (p *proc) close() { p.client.Kill() }

// impl is the process's extractor or digester.
func (p *proc) impl() described {
	if p.dg != nil {
		return p.dg
	}
	return p.ex
}

func (p *proc) exited() bool { return p.client.Exited() }
