package host

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/siftd/sift/plugins/sdk"
)

// Pool keeps a fixed number of warm processes of one plugin. A call takes
// one process for itself, so a process killed on a deadline costs only that
// call. Crashed and killed processes are replaced in the background; a
// plugin that keeps failing is restarted with growing backoff.
type Pool struct {
	spec   *Spec
	launch *launcher
	log    *slog.Logger
	obs    Observer

	idle   chan *proc
	ctx    context.Context // ends when the pool closes
	cancel context.CancelFunc
	wg     sync.WaitGroup
	streak atomic.Int32 // consecutive failed calls, for restart backoff

	mu    sync.Mutex
	procs map[*proc]struct{}
	// broken is closed while the pool has no process and the last restart
	// failed: calls then fail at once instead of waiting for a process
	// that may never come. restartErr says why.
	broken     chan struct{}
	restartErr error
	// hosts counts the hosts using the pool: a reload's new host shares
	// the pools whose blocks did not change (key) with the old one.
	hosts int
	key   string
}

const maxBackoff = 5 * time.Second

// newPool starts spec.Pool processes and fails if the first cannot start.
func newPool(ctx context.Context, spec *Spec, l *launcher, log *slog.Logger, obs Observer) (*Pool, error) {
	pctx, cancel := context.WithCancel(context.Background())
	p := &Pool{spec: spec, launch: l, log: log, obs: obs, idle: make(chan *proc, spec.Pool),
		ctx: pctx, cancel: cancel, procs: map[*proc]struct{}{}, broken: make(chan struct{}), hosts: 1}
	for range spec.Pool {
		pr, err := l.start(ctx)
		if err != nil {
			p.Close()
			return nil, fmt.Errorf("extractor %q: %w", spec.Name, err)
		}
		p.add(pr)
	}
	p.wg.Add(1)
	go p.watch(WatchInterval)
	return p, nil
}

// Size reports how many processes are alive: one that exited and is not
// replaced yet does not count.
func (p *Pool) Size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for pr := range p.procs {
		if !pr.exited() {
			n++
		}
	}
	return n
}

// Extract runs one extraction on a free process.
func (p *Pool) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	var res *sdk.ExtractResult
	err := p.call(ctx, func(ctx context.Context, pr *proc) (err error) {
		res, err = pr.ex.Extract(ctx, req)
		return err
	})
	return res, err
}

// Digest runs one digest on a free process.
func (p *Pool) Digest(ctx context.Context, req *sdk.DigestRequest) (*sdk.DigestResult, error) {
	var res *sdk.DigestResult
	err := p.call(ctx, func(ctx context.Context, pr *proc) (err error) {
		res, err = pr.dg.Digest(ctx, req)
		return err
	})
	return res, err
}

// call runs one plugin call on a free process under the per-call deadline
// and decides the process's fate from how it ended.
func (p *Pool) call(ctx context.Context, do func(context.Context, *proc) error) error {
	pr, err := p.acquire(ctx)
	if err != nil {
		return err
	}
	callCtx, cancel := context.WithTimeout(ctx, p.spec.Timeout)
	defer cancel()
	start := time.Now()
	err = do(callCtx, pr)
	outcome := "ok"
	if err == nil {
		p.streak.Store(0)
		p.idle <- pr
	} else {
		outcome, err = p.fail(ctx, callCtx, pr, err)
	}
	p.obs.PluginCall(p.spec.Name, outcome, time.Since(start))
	return err
}

// fail classifies a failed call, decides the process's fate, and names
// the outcome for metrics.
func (p *Pool) fail(ctx, callCtx context.Context, pr *proc, err error) (string, error) {
	var de *sdk.DocError
	switch {
	case errors.As(err, &de):
		p.streak.Store(0)
		p.idle <- pr
		return "document_error", err
	case status.Code(err) == codes.ResourceExhausted:
		p.idle <- pr
		return "reply_too_large", fmt.Errorf("%w: %s", ErrReplyTooLarge, status.Convert(err).Message())
	case ctx.Err() != nil:
		// The caller gave up; the process may still be working on it.
		p.replace(pr, "cancelled")
		return "cancelled", ctx.Err()
	case timedOut(callCtx, err):
		p.replace(pr, "timeout")
		return "timeout", fmt.Errorf("%w after %s; the process was killed and replaced", ErrTimeout, p.spec.Timeout)
	case (status.Code(err) == codes.Unavailable || pr.exited()) && pr.diedOutOfMemory():
		p.replace(pr, "out_of_memory")
		return "out_of_memory", fmt.Errorf("%w: reading the document needed more than the extractor's memory limit of %s; "+
			"its process was replaced (raise the block's memory, or lower the fetch stage's max_body)", ErrOutOfMemory, mib(p.spec.Memory))
	case status.Code(err) == codes.Unavailable || pr.exited():
		p.replace(pr, "crash")
		// gRPC's words for it ("error reading from server: EOF") say
		// nothing to the caller; the exit is logged with its status.
		return "crashed", fmt.Errorf("%w: its process ended during the call and was replaced", ErrCrashed)
	}
	p.idle <- pr
	return "failed", fmt.Errorf("%w: %s", ErrFailed, status.Convert(err).Message())
}

// timedOut reports whether a call failed on its own deadline. The plugin's
// gRPC server enforces the same deadline and may reset the stream
// (Canceled) a moment before the host's timer fires.
func timedOut(callCtx context.Context, err error) bool {
	switch status.Code(err) {
	case codes.DeadlineExceeded, codes.Canceled:
		return true
	}
	return errors.Is(callCtx.Err(), context.DeadlineExceeded)
}

// acquire takes a live process, replacing any that died while idle. It
// waits no longer than a call may take, and not at all while the pool is
// broken.
func (p *Pool) acquire(ctx context.Context) (*proc, error) {
	wait := time.NewTimer(p.spec.Timeout)
	defer wait.Stop()
	for {
		select {
		case pr := <-p.idle:
			if !pr.exited() {
				return pr, nil
			}
			p.replace(pr, "exited")
			continue
		default:
		}
		select {
		case pr := <-p.idle:
			if !pr.exited() {
				return pr, nil
			}
			p.replace(pr, "exited")
		case <-p.brokenCh():
			if err := p.Failing(); err != nil {
				return nil, fmt.Errorf("%w: %q cannot restart: %v", ErrUnavailable, p.spec.Name, err)
			}
		case <-wait.C:
			return nil, fmt.Errorf("%w: no process of %q free within %s", ErrTimeout, p.spec.Name, p.spec.Timeout)
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-p.ctx.Done():
			return nil, ErrClosed
		}
	}
}

func (p *Pool) brokenCh() <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.broken
}

// Failing returns why the pool cannot restart its processes while it has
// none left, or nil.
func (p *Pool) Failing() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.procs) > 0 {
		return nil
	}
	return p.restartErr
}

// restarted records the outcome of a restart: a failure with no process
// left breaks the pool, a success mends it.
func (p *Pool) restarted(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.restartErr = err
	broken := err != nil && len(p.procs) == 0
	closed := false
	select {
	case <-p.broken:
		closed = true
	default:
	}
	switch {
	case broken && !closed:
		close(p.broken)
	case !broken && closed:
		p.broken = make(chan struct{})
	}
}

func (p *Pool) add(pr *proc) {
	p.mu.Lock()
	p.procs[pr] = struct{}{}
	p.mu.Unlock()
	p.idle <- pr
}

// replace kills pr and starts a successor in the background.
func (p *Pool) replace(pr *proc, why string) {
	p.mu.Lock()
	delete(p.procs, pr)
	if p.ctx.Err() != nil {
		p.mu.Unlock()
		pr.kill(why)
		return
	}
	// Added under the lock that Close takes to cancel, so no Add can race
	// with Close's Wait.
	p.wg.Add(2)
	p.mu.Unlock()
	streak := p.streak.Add(1)
	p.log.Warn("replacing plugin process", "plugin", p.spec.Name, "reason", why)
	p.obs.PluginRestart(p.spec.Name, why)
	go func() { defer p.wg.Done(); pr.kill(why) }()
	go func() { defer p.wg.Done(); p.respawn(backoff(streak)) }()
}

// backoff is no delay for an isolated failure, then doubles from 50 ms.
func backoff(streak int32) time.Duration {
	if streak <= 1 {
		return 0
	}
	return min(50*time.Millisecond<<min(streak-2, 16), maxBackoff)
}

func (p *Pool) respawn(delay time.Duration) {
	for attempt := 1; ; attempt++ {
		select {
		case <-p.ctx.Done():
			return
		case <-time.After(delay):
		}
		pr, err := p.launch.start(p.ctx)
		if p.ctx.Err() == nil {
			p.restarted(err)
		}
		if err == nil {
			p.mu.Lock()
			closed := p.ctx.Err() != nil
			if !closed {
				p.procs[pr] = struct{}{}
			}
			p.mu.Unlock()
			if closed {
				pr.kill("closed")
				return
			}
			p.idle <- pr
			return
		}
		p.log.Error("plugin restart failed", "plugin", p.spec.Name, "attempt", attempt, "err", err)
		delay = min(max(delay*2, 50*time.Millisecond), maxBackoff)
	}
}

// Close kills every process and waits for background restarts to stop.
func (p *Pool) Close() {
	p.mu.Lock()
	p.cancel()
	procs := p.procs
	p.procs = map[*proc]struct{}{}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for pr := range procs {
		wg.Go(pr.close)
	}
	wg.Wait()
	p.wg.Wait()
	if p.launch.sockets != "" {
		_ = os.RemoveAll(p.launch.sockets)
	}
}

// Name is the plugin's name.
func (p *Pool) Name() string { return p.spec.Name }

// Version is the version the plugin announced.
func (p *Pool) Version() string { return p.spec.Info.Version }

// DevOverride reports that the pool runs a development override's
// unpinned binary.
func (p *Pool) DevOverride() bool { return p.spec.DevOverride }

// Warnings are what the plugin warned of when it was configured.
func (p *Pool) Warnings() []string { return p.spec.Warnings }

// Capacity is the number of processes the pool keeps.
func (p *Pool) Capacity() int { return p.spec.Pool }
