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
// requests that go to the origin take them (the chain calls the request's
// stages.Request.Gate): cache hits and requests sharing an identical one
// in flight do not.
//
// A full gate does not refuse at once: agents fire parallel tool calls at
// one site, and neither the Firecrawl SDK nor its MCP server retries a
// 429. A request waits in line, first come first served, for at most wait
// and never past its own deadline; only a line longer than queue, or a
// wait that runs out, is answered 429 with Retry-After. A request whose
// turn would clearly come after its wait ends, judged by its place in line
// and how long this caller's recent fetches of the host held their slot,
// is answered 429 at once, its Retry-After the wait it was spared
// (predict).
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
	waiting []*waiter
	// meanHold is the recent mean time a fetch held a slot of this gate
	// (0 until one was released): what a place in line costs.
	meanHold time.Duration
}

// waiter is one request in a host gate's line. turn is closed when the
// slot passes to it, or when it is sent away: then refused holds the wait
// predicted for it, set before the close.
type waiter struct {
	turn    chan struct{}
	until   time.Time // when its wait ends: the gates' bound or its deadline
	refused time.Duration
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
	var until time.Time
	if wait && g.wait > 0 {
		t := time.NewTimer(g.wait)
		defer t.Stop()
		deadline, until = t.C, start.Add(g.wait)
		if dl, ok := ctx.Deadline(); ok && dl.Before(until) {
			until = dl
		}
	}
	key := callerName + "\x00" + host
	if busy := g.takeHost(ctx, key, deadline, until); busy != nil {
		g.observe(time.Since(start), false)
		return nil, busy
	}
	if busy := g.takeGlobal(ctx, deadline); busy != nil {
		g.releaseHost(key, 0) // held for no fetch: nothing to learn
		g.observe(time.Since(start), false)
		return nil, busy
	}
	g.observe(time.Since(start), true)
	held := time.Now()
	return sync.OnceFunc(func() {
		<-g.global
		g.releaseHost(key, time.Since(held))
	}), nil
}

// takeHost takes a slot of key's gate, or waits in its line until one is
// passed on, deadline fires (at until) or ctx ends. A nil deadline never
// waits.
func (g *gates) takeHost(ctx context.Context, key string, deadline <-chan time.Time, until time.Time) *Error {
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
	w := &waiter{turn: make(chan struct{}), until: until}
	if predicted, hopeless := g.predict(h, len(h.waiting), w, time.Now()); hopeless {
		g.mu.Unlock()
		return spared(predicted, len(h.waiting), h.meanHold)
	}
	h.waiting = append(h.waiting, w)
	g.mu.Unlock()
	select {
	case <-w.turn:
		if w.refused > 0 {
			return spared(w.refused, -1, 0)
		}
		return nil
	case <-deadline:
	case <-ctx.Done():
	}
	if g.leaveLine(key, w) {
		return nil // the slot was passed on as the wait ended: keep it
	}
	if w.refused > 0 {
		return spared(w.refused, -1, 0)
	}
	return g.waitedTooLong(ctx, "this caller's fetches of this host to finish")
}

// hopelessFactor is how far past a request's wait the predicted turn must
// fall before it is sent away: a mean of a few holds is a rough guide, and
// a request that might still make it waits.
const hopelessFactor = 1.25

// predict is the wait of a request at place pos (0 is the head) in h's
// line, in whole rounds of the gate's slots at its mean hold, and whether
// that clearly exceeds what is left of w's wait. With no hold measured, or
// no bound on the wait, there is no prediction. g.mu is held.
func (g *gates) predict(h *hostGate, pos int, w *waiter, now time.Time) (time.Duration, bool) {
	if h.meanHold <= 0 || w.until.IsZero() {
		return 0, false
	}
	predicted := time.Duration(pos/g.perHost+1) * h.meanHold
	left := w.until.Sub(now)
	return predicted, float64(predicted) > hopelessFactor*float64(left)
}

// spared is the answer to a request sent away because its turn would come
// too late: Retry-After is the wait predicted for it. ahead, when known,
// is how many were in line before it, at hold each.
func spared(predicted time.Duration, ahead int, hold time.Duration) *Error {
	why := fmt.Sprintf("this caller's fetches of this host ahead of this one would take about %s, and its wait "+
		"(the gates block's wait, or the request's deadline) ends before that; retry after them", predicted.Round(100*time.Millisecond))
	if ahead >= 0 {
		why = fmt.Sprintf("%d of this caller's fetches of this host wait ahead of this one, each holding the host about %s: ",
			ahead, hold.Round(100*time.Millisecond)) + why
	}
	ae := busyError(why)
	ae.RetryAfter = max(1, int((predicted+time.Second-1)/time.Second))
	return ae
}

// leaveLine takes w out of key's line; it reports true when the slot had
// already been passed to it, which the caller then holds.
func (g *gates) leaveLine(key string, w *waiter) (granted bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-w.turn:
		return w.refused == 0
	default:
	}
	h := g.hosts[key]
	for i, c := range h.waiting {
		if c == w {
			h.waiting = append(h.waiting[:i], h.waiting[i+1:]...)
			break
		}
	}
	return false
}

// releaseHost passes key's slot to the head of its line, or frees it, and
// learns from hold, how long the slot was held (0 when it served no
// fetch): the requests left in line
// whose turn would now clearly come too late are sent away.
func (g *gates) releaseHost(key string, hold time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	h := g.hosts[key]
	switch {
	case hold <= 0:
	case h.meanHold == 0:
		h.meanHold = hold
	default:
		h.meanHold = (3*h.meanHold + hold) / 4
	}
	if len(h.waiting) > 0 {
		close(h.waiting[0].turn)
		h.waiting = h.waiting[1:]
		g.sendAwayHopeless(h, time.Now())
		return
	}
	if h.running--; h.running == 0 {
		delete(g.hosts, key)
	}
}

// sendAwayHopeless refuses, at once, each request in h's line whose
// predicted turn clearly comes after its wait ends; the others keep their
// order. g.mu is held.
func (g *gates) sendAwayHopeless(h *hostGate, now time.Time) {
	kept := h.waiting[:0]
	for _, w := range h.waiting {
		if predicted, hopeless := g.predict(h, len(kept), w, now); hopeless {
			w.refused = predicted
			close(w.turn)
			continue
		}
		kept = append(kept, w)
	}
	clear(h.waiting[len(kept):])
	h.waiting = kept
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
