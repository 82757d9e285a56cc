package stages

import (
	"context"
	"errors"
	"sync"
)

// Gate admits a request to the origin. The runner calls it once per
// request, before the first stage a checkpoint did not spare, and calls
// release when the chain ends; a cache hit, or a request served by another
// one in flight, never calls it. An error (busy) ends the request.
type Gate func(ctx context.Context) (release func(), err error)

// admit takes doc's gate, if its request carries one.
func admit(ctx context.Context, doc *Doc) (func(), error) {
	if doc.Request.Gate == nil {
		return func() {}, nil
	}
	release, err := doc.Request.Gate(ctx)
	if err != nil {
		return nil, err
	}
	return release, nil
}

// Shared is implemented by a checkpoint whose snapshots identical requests
// may share: requests with the same FlightKey that miss together wait for
// the first one to reach the checkpoint and resume from its snapshot
// instead of each going to the origin.
type Shared interface {
	Checkpoint
	// FlightKey names what the snapshot for doc depends on, or "" when
	// doc cannot share one.
	FlightKey(doc *Doc) string
}

// flights are the misses in flight, by checkpoint and key.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
}

// flight is one miss that identical requests wait for.
type flight struct {
	done chan struct{}
	err  error // the leader's stage error, if its stages failed
}

// join returns the flight for key and whether the caller leads it.
func (fs *flights) join(key string) (*flight, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if f, ok := fs.m[key]; ok {
		return f, false
	}
	if fs.m == nil {
		fs.m = map[string]*flight{}
	}
	f := &flight{done: make(chan struct{})}
	fs.m[key] = f
	return f, true
}

// land ends the flight the caller led.
func (fs *flights) land(key string, f *flight, err error) {
	fs.mu.Lock()
	delete(fs.m, key)
	fs.mu.Unlock()
	f.err = err
	close(f.done)
}

// wait waits for the leader; it returns the leader's failure when that is
// one the follower would meet too (not the leader's own cancellation or
// busy gate, which the follower retries on its own).
func (f *flight) wait(ctx context.Context) error {
	select {
	case <-f.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if f.err == nil || errors.Is(f.err, ErrBusy) ||
		errors.Is(f.err, context.Canceled) || errors.Is(f.err, context.DeadlineExceeded) {
		return nil
	}
	return f.err
}
