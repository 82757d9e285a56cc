package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// admission guards a pool whose documents are costly and may be hostile
// (PDFs): it never queues, so a pool full of slow files answers busy at
// once instead of stacking requests behind them; it keeps any one caller
// to perCaller of the slots; and requests for the same document (body and
// options) share one extraction. Each call names its caller's share
// (stages.SharedExtractor); batch work runs as "<caller>/batch", a share of
// its own.
type admission struct {
	next      stages.Extractor
	slots     int
	perCaller int

	mu       sync.Mutex
	inUse    int
	byCaller map[string]int
	flights  map[string]*flight
}

// flight is one extraction that later requests for the same document wait
// for.
type flight struct {
	done chan struct{}
	res  *sdk.ExtractResult
	err  error
}

func newAdmission(next stages.Extractor, slots, perCaller int) *admission {
	return &admission{next: next, slots: slots, perCaller: perCaller,
		byCaller: map[string]int{}, flights: map[string]*flight{}}
}

// Extract is ExtractFor in the share of calls that name no caller.
func (a *admission) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	return a.ExtractFor(ctx, "", req)
}

// ExtractFor runs the document through the pool in caller's share, joins
// an extraction of the same document already running, or answers
// stages.ErrBusy.
func (a *admission) ExtractFor(ctx context.Context, caller string, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	key := documentKey(req)
	a.mu.Lock()
	if f, ok := a.flights[key]; ok {
		a.mu.Unlock()
		return f.wait(ctx)
	}
	if err := a.admitLocked(caller); err != nil {
		a.mu.Unlock()
		return nil, err
	}
	f := &flight{done: make(chan struct{})}
	a.flights[key] = f
	a.mu.Unlock()

	f.res, f.err = a.next.Extract(ctx, req)
	a.mu.Lock()
	delete(a.flights, key)
	a.inUse--
	a.byCaller[caller]--
	if a.byCaller[caller] == 0 {
		delete(a.byCaller, caller)
	}
	a.mu.Unlock()
	close(f.done)
	return f.res, f.err
}

func (a *admission) admitLocked(caller string) error {
	switch {
	case a.inUse >= a.slots:
		return fmt.Errorf("%w: all %d extraction slots are taken", stages.ErrBusy, a.slots)
	case a.byCaller[caller] >= a.perCaller:
		return fmt.Errorf("%w: this caller already has %d document(s) extracting", stages.ErrBusy, a.perCaller)
	}
	a.inUse++
	a.byCaller[caller]++
	return nil
}

// wait returns the shared extraction's outcome, as a copy the caller may
// change.
func (f *flight) wait(ctx context.Context) (*sdk.ExtractResult, error) {
	select {
	case <-f.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if f.err != nil {
		return nil, f.err
	}
	res := *f.res
	res.Metadata = maps.Clone(f.res.Metadata)
	res.Warnings = slices.Clone(f.res.Warnings)
	return &res, nil
}

// documentKey names a document and the options it is read with.
func documentKey(req *sdk.ExtractRequest) string {
	h := sha256.New()
	h.Write(req.Body)
	for _, k := range slices.Sorted(maps.Keys(req.Options)) {
		fmt.Fprintf(h, "|%d:%s=%d:%s", len(k), k, len(req.Options[k]), req.Options[k])
	}
	fmt.Fprintf(h, "|%s|%d", req.ContentType, req.MaxOutputBytes)
	return hex.EncodeToString(h.Sum(nil))
}

var _ stages.SharedExtractor = (*admission)(nil)
