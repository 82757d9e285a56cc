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
// misses in flight together share one pass (see miss). A cache-only
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
		next, release, err := c.miss(ctx, doc, pos)
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
	for i := resumed; i < len(c.stages); i++ {
		if err := c.stages[i].run(ctx, doc); err != nil {
			return err
		}
	}
	return nil
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
func (c *Chain) miss(ctx context.Context, doc *Doc, pos int) (next int, release func(), err error) {
	at, key := c.flightKey(doc, pos)
	if key == "" {
		release, err := admit(ctx, doc)
		return pos, release, err
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
		return pos, release, err
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
	for i := pos; i <= at; i++ {
		if stageErr = c.stages[i].run(ctx, doc); stageErr != nil {
			return 0, release, stageErr
		}
	}
	return at + 1, release, nil
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
