package host

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"time"

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
	oom    *oomWatch     // what its stderr said of its death
	stop   *stopMark     // set once sift ends it, so its end is no crash
}

// launcher starts processes for one spec.
type launcher struct {
	spec   *Spec
	self   string // the sift binary, re-executed for built-ins
	config json.RawMessage
	// sockets, when set, is the private directory the plugin makes its
	// socket in (go-plugin's PLUGIN_UNIX_SOCKET_DIR); elsewhere it is the
	// temporary directory, where the umask decides who may connect.
	sockets string
	// cache, when set, is the plugin's own lasting directory (EnvCacheDir).
	cache string
	log   *slog.Logger // receives the plugin's stderr, each entry as a field
}

// command returns the command that starts a process and, for an external
// plugin, its binary, open and checked against the pin, for the caller to
// close once the process has started.
func (l *launcher) command() (*exec.Cmd, *os.File, error) {
	if !l.spec.External() {
		return exec.Command(l.self, "plugin", l.spec.Name), nil, nil
	}
	bin, err := openPinned(l.spec)
	if err != nil {
		return nil, nil, fmt.Errorf("start: %w", err)
	}
	return pinnedCmd(bin, l.spec.Command), bin, nil
}

// start launches one process, applies its memory limit and configures it.
func (l *launcher) start(ctx context.Context) (*proc, error) {
	cmd, bin, err := l.command()
	if err != nil {
		return nil, err
	}
	if bin != nil {
		// The process has its own descriptor once it has started.
		defer bin.Close()
	}
	dieWithParent(cmd)
	cmd.Env = pluginEnv(l.spec)
	if l.sockets != "" {
		cmd.Env = append(cmd.Env, plugin.EnvUnixSocketDir+"="+l.sockets)
	}
	if l.cache != "" {
		cmd.Env = append(cmd.Env, sdk.EnvCacheDir+"="+l.cache)
	}
	oom, stop := &oomWatch{}, &stopMark{}
	cfg := &plugin.ClientConfig{
		Stderr:           oom,
		HandshakeConfig:  sdk.Handshake,
		VersionedPlugins: sdk.PluginSets(nil, nil),
		Cmd:              cmd,
		SkipHostEnv:      true,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		GRPCDialOptions: []grpc.DialOption{grpc.WithDefaultCallOptions(
			grpc.MaxCallRecvMsgSize(l.spec.MaxMessage), grpc.MaxCallSendMsgSize(l.spec.MaxMessage))},
		Logger: pluginLogger(l.spec.Name, l.log, oom, stop),
	}
	if l.spec.thirdParty() {
		// An operator's own plugin also speaks mutual TLS. The built-ins
		// and the companions ship with sift and are reached only through
		// the pool's private socket directory; TLS would cost each call a
		// fifth of the host's CPU for a 2 MB body (BenchmarkCallOverhead).
		// The pin was checked on the open binary above; go-plugin's own
		// check (SecureConfig) hashes by path, which a swap defeats.
		cfg.AutoMTLS = true
	}
	client := plugin.NewClient(cfg)
	p, err := l.connect(ctx, client)
	if err != nil {
		client.Kill()
		return nil, err
	}
	p.cmd, p.oom, p.stop = cmd, oom, stop
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
// client cleans up. why is the pool's reason: for a process sift ends while
// it lives (stoppedBySift), its end is logged as sift's stop, not as a
// crash; one that already died on its own keeps its ERROR.
func (p *proc) kill(why string) {
	if stoppedBySift(why) {
		p.stop.mark(why)
	}
	if p.cmd != nil && p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
	p.client.Kill()
}

// stoppedBySift reports whether why is a reason for which sift kills a
// process that is still alive: a call's deadline, a caller that gave up, a
// pool that closed. The others ("crash", "exited", "out_of_memory") name a
// process that ended on its own.
func stoppedBySift(why string) bool {
	switch why {
	case "timeout", "cancelled", "closed":
		return true
	}
	return false
}

// close asks the process to exit and waits for it; for healthy processes.
// One busy with a call past go-plugin's grace is killed: sift's stop too.
func (p *proc) close() {
	p.stop.mark("closed")
	p.client.Kill()
}

// impl is the process's extractor or digester.
func (p *proc) impl() described {
	if p.dg != nil {
		return p.dg
	}
	return p.ex
}

func (p *proc) exited() bool { return p.client.Exited() }

// diedOutOfMemory reports whether a process whose call failed as it ended
// died of its memory limit, as its Go runtime said on stderr. go-plugin
// marks a process exited only once its stderr is read to the end, so the
// wait for the exit, at most five seconds (a loaded machine reads a
// runtime's dump of a thousand lines slowly), is a wait for the last line.
func (p *proc) diedOutOfMemory() bool {
	if p.oom == nil {
		return false
	}
	deadline := time.Now().Add(5 * time.Second)
	for !p.exited() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	return p.oom.seen.Load()
}
