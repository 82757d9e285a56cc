package stages

import (
	"context"
	"time"
)

// Run passes doc through the chain.
//
// Checkpoints (cache stages) let the runner skip work: the leading
// always-run stages (guard) run first; then the furthest checkpoint holding a
// fresh snapshot restores it, every always-run stage before that checkpoint
// that has not yet run runs on the restored Doc, and the chain continues
// after the checkpoint. Without a hit every stage runs, and each checkpoint
// stores its snapshot as it is passed.
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
	for i := max(pos, resumed); i < len(c.stages); i++ {
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
		if MatchMediaType(pattern, mediaType) {
			return true
		}
	}
	return false
}
