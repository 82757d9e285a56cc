package stages

import (
	"context"
	"strconv"
	"time"

	"github.com/siftd/sift/mediatype"
)

// Run passes doc through the chain.
//
// Checkpoints (cache stages) let the runner skip work: the leading
// always-run stages (guard) run first; then the furthest checkpoint holding a
// fresh snapshot restores it, every always-run stage before that checkpoint
// that has not yet run runs on the restored Doc, and the chain continues
// after the checkpoint. Without a hit every stage runs, under the ctx's
// Gate, and each checkpoint stores its snapshot as it is passed; identical
// misses in flight together share one pass (see miss). On a miss, the
// furthest checkpoint that keeps a snapshot past its freshness with
// validators has fetch revalidate it: a 304 renews the snapshot and the
// chain goes on after that checkpoint, the stages between fetch and it
// not run again (see stale and step). A cache-only
// request that no checkpoint answers ends there, with ErrNotCached.
func (c *Chain) Run(ctx context.Context, doc *Doc) error {
	pos := 0
	for pos < len(c.stages) && c.stages[pos].kind.AlwaysRun {
		if err := c.stages[pos].run(ctx, doc); err != nil {
			return err
		}
		pos++
	}
	resumed, err := c.resume(ctx, doc, pos)
	if err != nil {
		return err
	}
	if resumed == pos && doc.Request.CacheOnly {
		return ErrNotCached
	}
	if resumed == pos {
		rv, err := c.stale(ctx, doc, pos)
		if err != nil {
			return err
		}
		next, release, err := c.miss(ctx, doc, pos, rv)
		if release != nil {
			defer release()
		}
		if err != nil {
			return err
		}
		resumed = next
	}
	if resumed < len(c.stages) {
		doc.Memo = nil // a stage after the checkpoint changes the Doc
	}
	for i := resumed; i < len(c.stages); {
		next, err := c.step(ctx, doc, i, nil)
		if err != nil {
			return err
		}
		i = next
	}
	return nil
}

// revalidation is a stale snapshot a request revalidates: the checkpoint
// at index at holds it.
type revalidation struct {
	at    int
	cp    Revalidator
	stale *Stale
}

// stale finds the furthest checkpoint from pos on that keeps a snapshot
// past its freshness with validators, and sets doc.Revalidate to them.
func (c *Chain) stale(ctx context.Context, doc *Doc, pos int) (*revalidation, error) {
	for j := len(c.stages) - 1; j >= pos; j-- {
		rv, ok := c.stages[j].stage.(Revalidator)
		if !ok {
			continue
		}
		st, err := rv.Stale(ctx, doc)
		if err != nil {
			return nil, stageError(c.stages[j].kind.Name, err)
		}
		if st != nil {
			doc.Revalidate = &st.Validators
			return &revalidation{at: j, cp: rv, stale: st}, nil
		}
	}
	return nil, nil
}

// step runs stage i and returns the index of the next: after a fetch the
// origin answered 304 to rv's validators, the checkpoint renews its
// snapshot into doc and the chain goes on after it.
func (c *Chain) step(ctx context.Context, doc *Doc, i int, rv *revalidation) (int, error) {
	if err := c.stages[i].run(ctx, doc); err != nil {
		return 0, err
	}
	if rv == nil || !doc.NotModified || i >= rv.at {
		return i + 1, nil
	}
	if err := rv.cp.Renew(ctx, doc, rv.stale); err != nil {
		return 0, stageError(c.stages[rv.at].kind.Name, err)
	}
	return rv.at + 1, nil
}

// resume looks for the furthest fresh checkpoint at or after from. On a hit
// it restores doc, runs the always-run stages between from and the
// checkpoint, and returns the index to continue at; otherwise it returns from.
func (c *Chain) resume(ctx context.Context, doc *Doc, from int) (int, error) {
	for j := len(c.stages) - 1; j >= from; j-- {
		cp, ok := c.stages[j].stage.(Checkpoint)
		if !ok {
			continue
		}
		hit, err := cp.Resume(ctx, doc)
		if err != nil {
			return 0, stageError(c.stages[j].kind.Name, err)
		}
		if !hit {
			continue
		}
		for k := from; k < j; k++ {
			if c.stages[k].kind.AlwaysRun {
				if err := c.stages[k].run(ctx, doc); err != nil {
					return 0, err
				}
			}
		}
		return j + 1, nil
	}
	return from, nil
}

// miss handles a request no checkpoint had a snapshot for. The first
// checkpoint from pos on that can share one names a flight: the first
// request to miss leads it, taking the gate and running the stages up to
// and including that checkpoint, which stores the snapshot; identical
// requests arriving meanwhile wait and resume from it, never taking the
// gate. A follower that finds nothing stored (the leader was cancelled or
// the answer may not be kept) runs the stages itself. miss returns where
// to continue and the gate to release when the chain ends.
func (c *Chain) miss(ctx context.Context, doc *Doc, pos int, rv *revalidation) (next int, release func(), err error) {
	at, key := c.flightKey(doc, pos)
	if key == "" {
		release, err := admit(ctx, doc)
		if err != nil {
			return 0, release, err
		}
		next, err := c.through(ctx, doc, pos, len(c.stages)-1, rv)
		return next, release, err
	}
	f, leader := c.flights.join(key)
	if !leader {
		if err := f.wait(ctx); err != nil {
			return 0, nil, err
		}
		if next, err := c.resume(ctx, doc, pos); err != nil || next > pos {
			return next, nil, err
		}
		release, err := admit(ctx, doc)
		if err != nil {
			return 0, release, err
		}
		next, err := c.through(ctx, doc, pos, len(c.stages)-1, rv)
		return next, release, err
	}
	var stageErr error
	defer func() { c.flights.land(key, f, stageErr) }() // a panic too sets the followers free
	// A flight that landed between this request's lookup and its joining
	// has stored what it came for: look once more before leaving.
	if next, err := c.resume(ctx, doc, pos); err != nil || next > pos {
		return next, nil, err
	}
	if release, err = admit(ctx, doc); err != nil {
		return 0, nil, err
	}
	next, stageErr = c.through(ctx, doc, pos, at, rv)
	return next, release, stageErr
}

// through runs the stages from pos to last, or up to a renewed snapshot's
// checkpoint, and returns where to continue.
func (c *Chain) through(ctx context.Context, doc *Doc, pos, last int, rv *revalidation) (int, error) {
	i := pos
	for i <= last {
		next, err := c.step(ctx, doc, i, rv)
		if err != nil {
			return 0, err
		}
		if next > i+1 {
			return next, nil
		}
		i = next
	}
	return i, nil
}

// flightKey finds the first checkpoint from pos on that shares snapshots,
// and the key of doc's flight there.
func (c *Chain) flightKey(doc *Doc, pos int) (int, string) {
	for i := pos; i < len(c.stages); i++ {
		if sh, ok := c.stages[i].stage.(Shared); ok {
			if key := sh.FlightKey(doc); key != "" {
				return i, strconv.Itoa(i) + "\x00" + key
			}
			return 0, ""
		}
	}
	return 0, ""
}

// run is the host-side wrapper every stage call goes through: it applies the
// content_types filter, times the stage and prefixes its errors.
func (b *bound) run(ctx context.Context, doc *Doc) error {
	name := b.kind.Name
	if !b.accepts(doc.MediaType()) {
		doc.Timings = append(doc.Timings, Timing{Stage: name, Skipped: true})
		return nil
	}
	if err := ctx.Err(); err != nil {
		return stageError(name, err)
	}
	start := time.Now()
	err := b.stage.Run(ctx, doc)
	doc.Timings = append(doc.Timings, Timing{Stage: name, Duration: time.Since(start)})
	if err != nil {
		return stageError(name, err)
	}
	return nil
}

func (b *bound) accepts(mediaType string) bool {
	if b.contentTypes == nil {
		return true
	}
	for _, pattern := range b.contentTypes {
		if mediatype.Match(pattern, mediaType) {
			return true
		}
	}
	return false
}
