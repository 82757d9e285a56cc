package service

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/metrics"
)

// Default gate sizes.
const (
	// DefaultGlobalLimit is how many fetches run at once.
	DefaultGlobalLimit = 8
	// DefaultPerHostLimit is how many fetches one caller runs on one host.
	DefaultPerHostLimit = 1
)

// GateSizes size the gates; 0 means the default. Only tests change them.
type GateSizes struct {
	Global, PerHost int
}

// Gates bound concurrent fetches (a global limit and one per caller per
// host). A reload keeps them: requests on the old and the new
// configuration share one set of slots.
type Gates struct{ g *gates }

// NewGates returns gates of the given sizes, with requests waiting in line
// as the gates block says (a zero wait or queue refuses at once), their
// waits recorded in m when it is set.
func NewGates(cfg config.Gates, sizes GateSizes, m *metrics.Metrics) *Gates {
	if sizes.Global == 0 {
		sizes.Global = DefaultGlobalLimit
	}
	if sizes.PerHost == 0 {
		sizes.PerHost = DefaultPerHostLimit
	}
	var observe func(time.Duration, bool)
	if m != nil {
		observe = m.GateWait
	}
	return &Gates{g: newGates(sizes.Global, sizes.PerHost, cfg.Wait, cfg.Queue, observe)}
}

// Acquire takes a slot for caller on host, waiting in line when wait
// allows it, or reports busy.
func (g *Gates) Acquire(ctx context.Context, callerName, host string, wait bool) (release func(), busy *Error) {
	return g.g.acquire(ctx, callerName, host, wait)
}

// Waiting is how many wait in line for caller's gate on host.
func (g *Gates) Waiting(caller, host string) int {
	g.g.mu.Lock()
	defer g.g.mu.Unlock()
	if h := g.g.hosts[caller+"\x00"+host]; h != nil {
		return len(h.waiting)
	}
	return 0
}

// gates bound concurrent fetches: a global limit, and a limit per caller
// per host, so one agent cannot hammer one site or starve the others. Only
// requests that go to the origin take them (the chain asks, through
// stages.WithGate): cache hits and requests sharing an identical one in
// flight do not.
//
// A full gate does not refuse at once: agents fire parallel tool calls at
// one site, and neither the Firecrawl SDK nor its MCP server retries a
// 429. A request waits in line, first come first served, for at most wait
// and never past its own deadline; only a line longer than queue, or a
// wait that runs out, is answered 429 with Retry-After.
type gates struct {
	global  chan struct{}
	perHost int
	wait    time.Duration
	queue   int
	// observe records each wait and whether it ended admitted.
	observe func(waited time.Duration, admitted bool)

	mu    sync.Mutex
	hosts map[string]*hostGate // caller + "\x00" + host
}

// hostGate is one caller's share of one host: the fetches running and the
// line of those waiting, oldest first. A released slot passes straight to
// the head of the line, so a newcomer never overtakes it.
type hostGate struct {
	running int
	waiting []chan struct{}
}

func newGates(global, perHost int, wait time.Duration, queue int, observe func(time.Duration, bool)) *gates {
	if observe == nil {
		observe = func(time.Duration, bool) {}
	}
	return &gates{
		global: make(chan struct{}, global), perHost: perHost, wait: wait, queue: queue,
		observe: observe, hosts: map[string]*hostGate{},
	}
}

// acquire takes a slot for caller on host, waiting in line when wait
// allows it, or reports busy. The host slot is taken before the global
// one: a request waiting for its host holds nothing others need.
func (g *gates) acquire(ctx context.Context, callerName, host string, wait bool) (release func(), busy *Error) {
	start := time.Now()
	var deadline <-chan time.Time
	if wait && g.wait > 0 {
		t := time.NewTimer(g.wait)
		defer t.Stop()
		deadline = t.C
	}
	key := callerName + "\x00" + host
	if busy := g.takeHost(ctx, key, deadline); busy != nil {
		g.observe(time.Since(start), false)
		return nil, busy
	}
	if busy := g.takeGlobal(ctx, deadline); busy != nil {
		g.releaseHost(key)
		g.observe(time.Since(start), false)
		return nil, busy
	}
	g.observe(time.Since(start), true)
	return sync.OnceFunc(func() {
		<-g.global
		g.releaseHost(key)
	}), nil
}

// takeHost takes a slot of key's gate, or waits in its line until one is
// passed on, deadline fires or ctx ends. A nil deadline never waits.
func (g *gates) takeHost(ctx context.Context, key string, deadline <-chan time.Time) *Error {
	g.mu.Lock()
	h := g.hosts[key]
	if h == nil {
		h = &hostGate{}
		g.hosts[key] = h
	}
	if h.running < g.perHost && len(h.waiting) == 0 {
		h.running++
		g.mu.Unlock()
		return nil
	}
	if deadline == nil || len(h.waiting) >= g.queue {
		g.mu.Unlock()
		return busyError("a fetch of this host by this caller is already running, and the line behind it is full")
	}
	turn := make(chan struct{})
	h.waiting = append(h.waiting, turn)
	g.mu.Unlock()
	select {
	case <-turn:
		return nil
	case <-deadline:
	case <-ctx.Done():
	}
	if g.leaveLine(key, turn) {
		return nil // the slot was passed on as the wait ended: keep it
	}
	return g.waitedTooLong(ctx, "this caller's fetches of this host to finish")
}

// leaveLine takes turn out of key's line; it reports true when the slot
// had already been passed to it, which the caller then holds.
func (g *gates) leaveLine(key string, turn chan struct{}) (granted bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-turn:
		return true
	default:
	}
	h := g.hosts[key]
	for i, c := range h.waiting {
		if c == turn {
			h.waiting = append(h.waiting[:i], h.waiting[i+1:]...)
			break
		}
	}
	return false
}

// releaseHost passes key's slot to the head of its line, or frees it.
func (g *gates) releaseHost(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	h := g.hosts[key]
	if len(h.waiting) > 0 {
		close(h.waiting[0])
		h.waiting = h.waiting[1:]
		return
	}
	if h.running--; h.running == 0 {
		delete(g.hosts, key)
	}
}

// takeGlobal takes a slot of the global limit; blocked senders on a
// channel are served in order, so this line is first come first served
// too.
func (g *gates) takeGlobal(ctx context.Context, deadline <-chan time.Time) *Error {
	select {
	case g.global <- struct{}{}:
		return nil
	default:
	}
	if deadline == nil {
		return busyError("sift is at its concurrency limit")
	}
	select {
	case g.global <- struct{}{}:
		return nil
	case <-deadline:
	case <-ctx.Done():
	}
	return g.waitedTooLong(ctx, "a slot under sift's concurrency limit")
}

// waitedTooLong is the answer to a wait that ran out: the request's own
// deadline, or the gates' bound.
func (g *gates) waitedTooLong(ctx context.Context, what string) *Error {
	if ctx.Err() != nil {
		return busyError("the request's deadline passed while it waited for " + what)
	}
	return busyError(fmt.Sprintf("waited %s for %s", g.wait, what))
}

func busyError(why string) *Error {
	return ClassError(errclass.Busy, why)
}
