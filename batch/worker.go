package batch

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/siftd/sift/store"
)

// work takes one target at a time from the live jobs, round-robin, until
// the runner stops.
func (r *Runner) work(ctx context.Context) {
	for {
		select {
		case <-r.stop:
			return
		default:
		}
		j, wait := r.pick()
		if j == nil {
			r.idle(ctx, wait)
			continue
		}
		r.step(ctx, j)
		r.mu.Lock()
		j.held = false
		r.dropFinishedLocked()
		r.mu.Unlock()
		r.poke() // another worker may take this job's next target
	}
}

// idle waits for new work, the end of a busy pause, or the stop.
func (r *Runner) idle(ctx context.Context, wait time.Duration) {
	var timer <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-r.wake:
	case <-timer:
	case <-r.stop:
	case <-ctx.Done():
	}
}

// pick holds and returns the job whose turn it is: of the jobs no worker
// holds and that are not pausing after a busy answer, the one served
// longest ago (a new job has never been served). Else it returns how long
// until a pause ends (0: none is pausing).
func (r *Runner) pick() (*liveJob, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.opts.Now()
	var wait time.Duration
	var best *liveJob
	for _, j := range r.live {
		if j.held || j.cancelled {
			continue
		}
		if d := j.notBefore.Sub(now); d > 0 {
			if wait == 0 || d < wait {
				wait = d
			}
			continue
		}
		if best == nil || j.servedTurn < best.servedTurn {
			best = j
		}
	}
	if best == nil {
		return nil, wait
	}
	r.turn++
	best.held, best.servedTurn = true, r.turn
	return best, 0
}

// step runs the job's next target, or ends the job when none is left.
func (r *Runner) step(ctx context.Context, j *liveJob) {
	t, ok, err := r.store.ClaimTarget(ctx, j.id)
	if err != nil {
		r.log.Error("batch claim", "job", j.id, "error", err)
		r.pause(j)
		return
	}
	if !ok {
		r.end(ctx, j)
		return
	}
	r.notify(j.id)
	r.setInFlight(+1)
	start := time.Now()
	answer, err := r.call(ctx, j.caller, Target{URL: t.URL, Options: t.Options})
	took := time.Since(start)
	r.setInFlight(-1)

	out, outcome := store.Outcome{Result: answer}, "ok"
	switch {
	case errors.Is(err, ErrRetryLater) && r.opts.Now().Sub(j.busySinceOr(r.opts.Now())) < r.opts.RetryFor:
		if err := r.store.ReleaseTarget(ctx, j.id, t.Idx); err != nil {
			r.log.Error("batch release", "job", j.id, "error", err)
		}
		r.pause(j)
		return
	case errors.Is(err, ErrRetryLater):
		out, outcome = store.Outcome{Error: fmt.Sprintf("busy: still busy after %s of retries", r.opts.RetryFor)}, "busy"
	case err != nil:
		te := asTargetError(err)
		out, outcome = store.Outcome{Error: te.Message, Hint: te.Hint}, te.Outcome
	}
	j.busySince = time.Time{}
	if _, err := r.store.FinishTarget(ctx, j.id, t.Idx, out, r.opts.Now().UTC()); err != nil {
		r.log.Error("batch store result", "job", j.id, "error", err)
	}
	r.opts.Hooks.Target(outcome, took, len(out.Result))
	r.notify(j.id)
}

// busySinceOr marks now as the start of the current target's busy spell,
// unless it started earlier, and returns the start.
func (j *liveJob) busySinceOr(now time.Time) time.Time {
	if j.busySince.IsZero() {
		j.busySince = now
	}
	return j.busySince
}

// pause keeps the job from being picked for RetryEvery.
func (r *Runner) pause(j *liveJob) {
	r.mu.Lock()
	j.notBefore = r.opts.Now().Add(r.opts.RetryEvery)
	r.mu.Unlock()
}

// end drops a job that has no target left and reports how it ended.
func (r *Runner) end(ctx context.Context, j *liveJob) {
	r.mu.Lock()
	j.cancelled = true // no longer picked; dropped once released
	r.mu.Unlock()
	job, err := r.store.Job(ctx, j.id)
	if err != nil {
		r.log.Error("batch end", "job", j.id, "error", err)
		return
	}
	if job.Status != store.JobCancelled { // Cancel counted that one
		r.opts.Hooks.Job(job.Status)
	}
	r.opts.Hooks.JobFinished(r.opts.Now().Sub(j.created))
	r.notify(j.id)
}

// call runs the fetch under the per-target deadline. A panic costs the
// target an error; its value is never echoed (it may hold page content).
func (r *Runner) call(ctx context.Context, caller Caller, t Target) (answer []byte, err error) {
	ctx, cancel := context.WithTimeout(ctx, r.opts.TargetTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("batch fetch panicked", "stack", string(debug.Stack()))
			answer, err = nil, &TargetError{Message: "internal: the fetch failed unexpectedly", Outcome: "other"}
		}
	}()
	return r.fetch(ctx, caller, t)
}

func (r *Runner) setInFlight(delta int) {
	r.mu.Lock()
	r.inFlight += delta
	r.reportLocked()
	r.mu.Unlock()
}

func asTargetError(err error) *TargetError {
	var te *TargetError
	if errors.As(err, &te) {
		return te
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &TargetError{Message: "timeout: the target took longer than its deadline", Outcome: "too_long"}
	}
	return &TargetError{Message: err.Error(), Outcome: "other"}
}
