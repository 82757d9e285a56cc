package batch

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/store"
)

// work takes one target at a time from the live jobs, round-robin, until
// the runner stops. owner names the worker in its claims.
func (r *Runner) work(ctx context.Context, owner string) {
	for {
		select {
		case <-r.stop:
			return
		default:
		}
		j, wait := r.pick()
		if j == nil {
			if r.store.Shared() && (wait == 0 || wait > r.opts.PollEvery) {
				wait = r.opts.PollEvery // other instances may have taken jobs
			}
			r.idle(ctx, wait)
			r.discover(ctx)
			continue
		}
		r.step(ctx, j, owner)
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

// step runs the job's next target, or drops the job when none is left.
func (r *Runner) step(ctx context.Context, j *liveJob, owner string) {
	now := r.opts.Now().UTC()
	t, state, settled, err := r.store.ClaimTarget(ctx, j.id, store.Claim{Owner: owner, Now: now, Until: now.Add(r.opts.ClaimLease)})
	r.settled(j, settled)
	switch {
	case err != nil:
		r.log.Error("batch claim", "job", j.id, "error", err)
		r.pause(j, r.opts.RetryEvery)
		return
	case state == store.Elsewhere:
		r.pause(j, r.opts.PollEvery) // another instance runs its current target
		return
	case state == store.Finished:
		r.drop(j)
		return
	}
	r.notify(j.id)
	r.setInFlight(+1)
	start := time.Now()
	answer, err := r.callHolding(ctx, j, t.Idx, owner, Target{URL: t.URL, Options: t.Options})
	took := time.Since(start)
	r.setInFlight(-1)

	out, outcome := store.Outcome{Result: answer}, "ok"
	switch {
	case errors.Is(err, ErrRetryLater) && r.opts.Now().Sub(j.busySinceOr(r.opts.Now())) < r.opts.RetryFor:
		if err := r.store.ReleaseTarget(ctx, j.id, t.Idx, owner); err != nil {
			r.log.Error("batch release", "job", j.id, "error", err)
		}
		r.pause(j, r.opts.RetryEvery)
		return
	case errors.Is(err, ErrRetryLater):
		out, outcome = store.Outcome{Error: fmt.Sprintf("busy: still busy after %s of retries", r.opts.RetryFor)}, errclass.Get(errclass.Busy).Outcome
	case err != nil:
		te := asTargetError(err)
		out, outcome = store.Outcome{Error: te.Message, Hint: te.Hint}, te.Outcome
	}
	j.busySince = time.Time{}
	f, err := r.store.FinishTarget(ctx, j.id, t.Idx, owner, out, r.opts.Now().UTC(), r.budget())
	if err != nil {
		r.log.Error("batch store result", "job", j.id, "error", err)
	}
	if f.TooLarge {
		outcome, out.Result = errclass.Get(errclass.TooLarge).Outcome, nil
	}
	if f.Counted {
		r.opts.Hooks.Target(outcome, took, len(out.Result))
	}
	r.settled(j, f.Settled)
	r.notify(j.id)
}

// callHolding runs the fetch while renewing the claim on the target, so
// a long fetch is not mistaken for a dead instance.
func (r *Runner) callHolding(ctx context.Context, j *liveJob, idx int, owner string, t Target) ([]byte, error) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		tick := time.NewTicker(r.opts.ClaimLease / 3)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				until := r.opts.Now().UTC().Add(r.opts.ClaimLease)
				if _, err := r.store.RenewClaim(context.WithoutCancel(ctx), j.id, idx, owner, until); err != nil {
					r.log.Error("batch renew claim", "job", j.id, "error", err)
				}
			}
		}
	}()
	return r.call(ctx, j.caller, t)
}

// settled reports a job this worker's write finished.
func (r *Runner) settled(j *liveJob, status string) {
	if status == "" {
		return
	}
	r.opts.Hooks.Job(status)
	r.opts.Hooks.JobFinished(r.opts.Now().Sub(j.created))
	r.drop(j)
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

// pause keeps the job from being picked for d.
func (r *Runner) pause(j *liveJob, d time.Duration) {
	r.mu.Lock()
	j.notBefore = r.opts.Now().Add(d)
	r.mu.Unlock()
}

// drop stops picking a job: it has nothing left to run here.
func (r *Runner) drop(j *liveJob) {
	r.mu.Lock()
	j.cancelled = true // dropped from the ring once its worker lets go
	r.mu.Unlock()
}

// discover adds the live jobs of a shared store that this runner does not
// know yet: jobs other instances took, or whose instance died.
func (r *Runner) discover(ctx context.Context) {
	if !r.store.Shared() {
		return
	}
	if _, err := r.takeLive(ctx); err != nil {
		r.log.Error("batch discover", "error", err)
	}
}

// takeLive adds the store's live jobs that this runner serves (their
// caller and guard policy its own) and does not know yet, and returns the
// ids of the others.
func (r *Runner) takeLive(ctx context.Context) (others []string, err error) {
	jobs, err := r.store.LiveJobs(ctx)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, job := range jobs {
		c := Caller{Name: job.Caller, Key: job.CallerKey, Class: job.CallerClass}
		if !r.serves(c) || !r.samePolicy(job.Policy) {
			others = append(others, job.ID) // another instance's: its guard and limits apply
			continue
		}
		r.addLocked(&liveJob{id: job.ID, caller: c, created: job.CreatedAt})
	}
	return others, nil
}

// call runs the fetch under the per-target deadline. A panic costs the
// target an error; its value is never echoed (it may hold page content).
func (r *Runner) call(ctx context.Context, caller Caller, t Target) (answer []byte, err error) {
	ctx, cancel := context.WithTimeout(ctx, r.opts.TargetTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("batch fetch panicked", "stack", string(debug.Stack()))
			answer, err = nil, &TargetError{Message: "internal: the fetch failed unexpectedly", Outcome: errclass.OutcomeOther}
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
		return &TargetError{Message: "timeout: the target took longer than its deadline", Outcome: errclass.Get(errclass.Timeout).Outcome}
	}
	return &TargetError{Message: err.Error(), Outcome: errclass.OutcomeOther}
}

// serves reports whether c is one of the callers this instance serves,
// by name and key. With no callers configured (a runner not behind the
// API) every job is served.
func (r *Runner) serves(c Caller) bool {
	callers := r.identity.Load().callers
	if callers == nil {
		return true
	}
	for _, mine := range callers {
		if mine.Name == c.Name && mine.Key == c.Key {
			return true
		}
	}
	return false
}

// samePolicy reports whether a job accepted under policy may run here. A
// job stored before jobs recorded a policy runs anywhere.
func (r *Runner) samePolicy(policy string) bool {
	return policy == "" || policy == r.identity.Load().policy
}

// warnOthers says, on a shared database, how many live jobs this instance
// leaves to others because their caller or guard policy differs from its
// own: instances meant to share the work should agree on both.
func (r *Runner) warnOthers(ctx context.Context) {
	if !r.store.Shared() {
		return
	}
	jobs, err := r.store.LiveJobs(ctx)
	if err != nil {
		r.log.Error("batch discover", "error", err)
		return
	}
	n := 0
	for _, job := range jobs {
		if !r.serves(Caller{Name: job.Caller, Key: job.CallerKey}) || !r.samePolicy(job.Policy) {
			n++
		}
	}
	if n > 0 {
		r.log.Warn("batch jobs of instances with other callers or another guard policy are left to them", "jobs", n)
	}
}
