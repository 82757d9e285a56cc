package server

import (
	"sync"

	"github.com/siftd/sift/errclass"
)

// gates bound concurrent fetches: a global limit, and a limit per caller
// per host, so one agent cannot hammer one site or starve the others. Only
// requests that go to the origin take them (the chain asks, through
// stages.WithGate): cache hits and requests sharing an identical one in
// flight do not. A full gate answers at once with 429 and Retry-After:
// waiting would only hold the agent's connection.
type gates struct {
	global  chan struct{}
	perHost int

	mu    sync.Mutex
	inUse map[string]int // caller + "\x00" + host
}

func newGates(global, perHost int) *gates {
	return &gates{global: make(chan struct{}, global), perHost: perHost, inUse: map[string]int{}}
}

// acquire takes a slot for caller on host, or reports busy.
func (g *gates) acquire(callerName, host string) (release func(), busy *apiError) {
	select {
	case g.global <- struct{}{}:
	default:
		return nil, busyError("sift is at its concurrency limit")
	}
	key := callerName + "\x00" + host
	g.mu.Lock()
	if g.inUse[key] >= g.perHost {
		g.mu.Unlock()
		<-g.global
		return nil, busyError("a fetch of this host by this caller is already running")
	}
	g.inUse[key]++
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		if g.inUse[key]--; g.inUse[key] == 0 {
			delete(g.inUse, key)
		}
		g.mu.Unlock()
		<-g.global
	}, nil
}

func busyError(why string) *apiError {
	return classError(errclass.Busy, why)
}
