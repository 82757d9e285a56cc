package batch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/siftd/sift/store"
)

// Options configure a Runner; zero fields take the defaults.
type Options struct {
	Limits        Limits
	RetryEvery    time.Duration
	RetryFor      time.Duration
	TargetTimeout time.Duration
	SweepEvery    time.Duration
	// ClaimLease is how long a worker's claim on a target holds without
	// renewal; a worker renews it every third of that while it fetches.
	// On a shared database, a dead instance's targets are retried
	// elsewhere once their claims lapse.
	ClaimLease time.Duration
	// PollEvery is how often, on a shared database, the workers look for
	// jobs other instances took and long-polls look for changes other
	// instances made.
	PollEvery time.Duration
	Hooks     Hooks
	// Callers are the callers this instance serves. On a shared database
	// its workers take only the jobs of these callers (same name and key):
	// a job another instance accepted for a caller this one does not know
	// is left to that instance. At start, jobs stored before jobs carried
	// their caller's key are given to the caller of their name here.
	Callers []Caller
	// Policy fingerprints what else must agree between instances sharing a
	// database: the guard's policy. Jobs record the Policy of the instance
	// that accepted them, and an instance takes only the jobs of its own,
	// so a target is never fetched under a laxer guard than the one that
	// accepted it.
	Policy string
	Logger *slog.Logger
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

func (o *Options) defaults() {
	o.Limits = o.Limits.WithDefaults()
	o.RetryEvery = or(o.RetryEvery, DefaultRetryEvery)
	o.RetryFor = or(o.RetryFor, DefaultRetryFor)
	o.TargetTimeout = or(o.TargetTimeout, DefaultTargetTimeout)
	o.SweepEvery = or(o.SweepEvery, DefaultSweepEvery)
	o.ClaimLease = or(o.ClaimLease, DefaultClaimLease)
	o.PollEvery = or(o.PollEvery, DefaultPollEvery)
	if o.Hooks == nil {
		o.Hooks = NopHooks{}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

func or[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Runner owns the batch jobs of one sift process.
type Runner struct {
	store *store.Store
	fetch FetchFunc
	opts  Options
	log   *slog.Logger
	// instance names this runner's workers in their claims.
	instance string

	mu       sync.Mutex
	live     []*liveJob // this process's live jobs, oldest first
	turn     uint64     // counts the targets handed out, for turns
	inFlight int
	watchers map[string]*watcher
	wake     chan struct{}

	stop    chan struct{}
	stopped sync.Once
	cancel  context.CancelFunc
	done    sync.WaitGroup

	// identity is whom this instance serves and under which guard policy:
	// Options' Callers and Policy, replaced by SetIdentity on a reload.
	identity atomic.Pointer[identity]
}

// identity is the callers an instance serves and its guard policy's
// fingerprint.
type identity struct {
	callers []Caller
	policy  string
}

// liveJob is what the runner keeps in memory about a live job.
type liveJob struct {
	id      string
	caller  Caller
	created time.Time
	// held is set while a worker runs one of its targets: a job runs one
	// target at a time.
	held      bool
	cancelled bool
	// servedTurn is the runner's turn when the job last had a target
	// picked; the job served longest ago goes next.
	servedTurn uint64
	notBefore  time.Time // busy: not before this
	busySince  time.Time // when the current target was first refused busy
}

// New returns a runner over st that fetches with fetch. Start sets it going.
func New(st *store.Store, fetch FetchFunc, opts Options) *Runner {
	opts.defaults()
	instance, _ := newJobID()
	r := &Runner{store: st, fetch: fetch, opts: opts, log: opts.Logger, instance: instance[:12],
		watchers: map[string]*watcher{}, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	r.SetIdentity(opts.Callers, opts.Policy)
	return r
}

// SetIdentity replaces the callers this instance serves and its guard
// policy's fingerprint, as a configuration reload changes them: jobs
// submitted from then on carry the new policy, and the workers take the
// jobs of the new callers.
func (r *Runner) SetIdentity(callers []Caller, policy string) {
	r.identity.Store(&identity{callers: callers, policy: policy})
}

// Limits returns the runner's caps, defaults filled in.
func (r *Runner) Limits() Limits { return r.opts.Limits }

// budget is the store's view of the byte limits.
func (r *Runner) budget() store.Budget {
	l := r.opts.Limits
	return store.Budget{Result: l.ResultBytes, Caller: l.CallerBytes, Total: l.MaxBytes}
}

// Start sweeps and starts the workers and the sweeper. On a store of its
// own (SQLite) it first takes over the work a previous process left: a
// target that was running fails as restart (it may have half run, and is
// never resumed), the pending ones run. On a shared database that work
// belongs to the instances still running, or is retried once its claims
// lapse.
func (r *Runner) Start(ctx context.Context) error {
	if !r.store.Shared() {
		rec, err := r.store.RecoverAfterRestart(ctx, "restart")
		if err != nil {
			return fmt.Errorf("batch start: %w", err)
		}
		for range rec.Failed {
			r.opts.Hooks.Job("restart")
		}
		for _, status := range rec.Settled {
			r.opts.Hooks.Job(status)
		}
		if rec.Live > 0 || len(rec.Failed) > 0 {
			r.log.Info("batch jobs of the previous run resumed", "jobs", rec.Live,
				"targets_failed", len(rec.Failed), "reason", "restart", "jobs_finished", len(rec.Settled))
		}
	}
	for _, c := range r.identity.Load().callers {
		if _, err := r.store.AdoptJobs(ctx, c.Name, c.Key); err != nil {
			return fmt.Errorf("batch start: %w", err)
		}
	}
	if !r.store.Shared() {
		// One process: what it does not serve (its caller or guard policy
		// changed across the restart) has no one else to run it.
		others, err := r.takeLive(ctx)
		if err != nil {
			return fmt.Errorf("batch start: %w", err)
		}
		if len(others) > 0 {
			if err := r.store.FailJobs(ctx, others, "restart"); err != nil {
				return fmt.Errorf("batch start: %w", err)
			}
			for range others {
				r.opts.Hooks.Job("restart")
			}
			r.log.Warn("batch jobs of callers or a guard policy no longer configured failed", "jobs", len(others), "reason", "restart")
		}
	}
	r.warnOthers(ctx)
	r.sweep(ctx)
	workCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r.cancel = cancel
	for n := range r.opts.Limits.Workers {
		owner := fmt.Sprintf("%s/%d", r.instance, n)
		r.done.Go(func() { r.work(workCtx, owner) })
	}
	r.done.Go(func() { r.sweeper(workCtx) })
	return nil
}

// Close stops taking targets, lets those in flight finish and store until
// ctx ends, then cancels them and waits a moment more; a fetch that ignores
// its cancellation is left behind with an error, never waited on forever.
func (r *Runner) Close(ctx context.Context) error {
	r.stopped.Do(func() { close(r.stop) })
	finished := make(chan struct{})
	go func() { r.done.Wait(); close(finished) }()
	defer func() {
		if r.cancel != nil {
			r.cancel()
		}
	}()
	select {
	case <-finished:
		return nil
	case <-ctx.Done():
	}
	if r.cancel != nil {
		r.cancel()
	}
	select {
	case <-finished:
		return nil
	case <-time.After(closeGrace):
		return errors.New("batch: a worker did not stop after its fetch was cancelled")
	}
}

// closeGrace is how long Close waits for workers after cancelling them.
const closeGrace = 2 * time.Second

// Submit creates a job of targets for caller, or returns the caller's
// existing job for the same targets while its lease holds (reused).
func (r *Runner) Submit(ctx context.Context, caller Caller, targets []Target) (job *store.BatchJob, reused bool, err error) {
	lim := r.opts.Limits
	switch {
	case len(targets) == 0:
		return nil, false, ErrNoTargets
	case len(targets) > lim.TargetsPerJob:
		return nil, false, fmt.Errorf("%w: %d, at most %d per job", ErrTooManyTargets, len(targets), lim.TargetsPerJob)
	}
	key := IdemKey(caller.Name+"\x00"+caller.Key, targets)
	id, err := newJobID()
	if err != nil {
		return nil, false, err
	}
	now := r.opts.Now().UTC()
	job = &store.BatchJob{ID: id, Caller: caller.Name, CallerKey: caller.Key, Policy: r.identity.Load().policy, CallerClass: caller.Class, IdemKey: key,
		Status: store.JobQueued, CreatedAt: now, Lease: now}
	rows := make([]store.BatchTarget, len(targets))
	for i, t := range targets {
		rows[i] = store.BatchTarget{URL: t.URL, Options: []byte(t.Options)}
		if rows[i].Options == nil {
			rows[i].Options = []byte("{}")
		}
	}
	old, err := r.store.SubmitJob(ctx, job, rows, now.Add(-lim.TTL), store.Caps{PerCaller: lim.JobsPerCaller, Total: lim.JobsTotal})
	switch {
	case errors.Is(err, store.ErrCallerCap):
		return nil, false, ErrCallerBusy
	case errors.Is(err, store.ErrTotalCap):
		return nil, false, ErrBusy
	case err != nil:
		return nil, false, err
	case old != nil:
		r.opts.Hooks.Job("reused")
		return old, true, nil
	}
	r.opts.Hooks.Job("created")
	r.add(&liveJob{id: id, caller: caller, created: now})
	return job, false, nil
}

// Job returns caller's job id and slides its lease; another caller's job
// is ErrNotFound, never a refusal that would confirm it exists.
func (r *Runner) Job(ctx context.Context, caller Caller, id string) (*store.BatchJob, error) {
	job, err := r.owned(ctx, caller, id)
	if err != nil {
		return nil, err
	}
	if err := r.store.Touch(ctx, id, r.opts.Now().UTC()); err != nil {
		return nil, err
	}
	return job, nil
}

// owned reads caller's job id without touching it; another caller's job
// is ErrNotFound, an id no job can have ErrBadID.
func (r *Runner) owned(ctx context.Context, caller Caller, id string) (*store.BatchJob, error) {
	if len(id) > IDLen {
		return nil, ErrBadID
	}
	job, err := r.store.Job(ctx, id)
	if errors.Is(err, store.ErrJobNotFound) || (err == nil && (job.Caller != caller.Name || job.CallerKey != caller.Key)) {
		return nil, ErrNotFound
	}
	return job, err
}

// Summary returns caller's job id with its targets (those in status
// when it is not ""), without their results.
func (r *Runner) Summary(ctx context.Context, caller Caller, id, status string) (*store.BatchJob, []store.BatchTarget, error) {
	job, err := r.Job(ctx, caller, id)
	if err != nil {
		return nil, nil, err
	}
	ts, err := r.store.Summary(ctx, id, status)
	return job, ts, err
}

// Results returns caller's job id with a page of its targets and their
// results, as q selects; more reports whether selected targets remain
// after the page. Only the page's results are read.
func (r *Runner) Results(ctx context.Context, caller Caller, id string, q store.PageQuery) (job *store.BatchJob, page []store.BatchTarget, more bool, err error) {
	if job, err = r.Job(ctx, caller, id); err != nil {
		return nil, nil, false, err
	}
	page, more, err = r.store.ResultsPage(ctx, id, q)
	return job, page, more, err
}

// Target returns one target of caller's job id, with its result.
func (r *Runner) Target(ctx context.Context, caller Caller, id string, idx int) (*store.BatchTarget, error) {
	if _, err := r.Job(ctx, caller, id); err != nil {
		return nil, err
	}
	t, err := r.store.Target(ctx, id, idx)
	if errors.Is(err, store.ErrJobNotFound) {
		return nil, ErrNotFound
	}
	return t, err
}

// Cancel stops caller's job id before its next target; the target in
// flight finishes and is stored.
func (r *Runner) Cancel(ctx context.Context, caller Caller, id string) error {
	if _, err := r.Job(ctx, caller, id); err != nil {
		return err
	}
	switch err := r.store.CancelJob(ctx, id); {
	case errors.Is(err, store.ErrJobFinished):
		if job, jerr := r.store.Job(ctx, id); jerr == nil && job.Status == store.JobCancelled {
			return ErrAlreadyCancelled
		}
		return ErrFinished
	case errors.Is(err, store.ErrJobNotFound):
		return ErrNotFound
	case err != nil:
		return err
	}
	r.opts.Hooks.Job("cancelled")
	r.mu.Lock()
	for _, j := range r.live {
		if j.id == id {
			j.cancelled = true
		}
	}
	r.dropFinishedLocked()
	r.mu.Unlock()
	r.notify(id)
	return nil
}

// Await returns when caller's job id changes (a target starts or
// finishes, the job ends or is cancelled) or d passes, at once if the job
// has finished. Changes made by this process wake it at once; on a shared
// database the job is also looked at every PollEvery, for changes made by
// other instances. Nothing is kept for an id the caller does not own, and
// the watch is given up when Await returns.
func (r *Runner) Await(ctx context.Context, caller Caller, id string, d time.Duration) (err error) {
	defer func() {
		// A wait its caller gave up on ends as cancelled, not as the
		// read the cancellation interrupted ("interrupted" from SQLite).
		if err != nil && ctx.Err() != nil {
			err = ctx.Err()
		}
	}()
	if _, err := r.owned(ctx, caller, id); err != nil || d <= 0 {
		return err
	}
	changed, release := r.Watch(id) // before the read: no change falls between
	defer release()
	before, err := r.fingerprint(ctx, caller, id)
	if err != nil || before == "" {
		return err
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	var poll <-chan time.Time
	if r.store.Shared() {
		t := time.NewTicker(r.opts.PollEvery)
		defer t.Stop()
		poll = t.C
	}
	for {
		select {
		case <-changed:
			return nil
		case <-timer.C:
			return nil
		case <-ctx.Done():
			return nil
		case <-poll:
			now, err := r.fingerprint(ctx, caller, id)
			if err != nil || now != before {
				return err
			}
		}
	}
}

// fingerprint sums up a live job's state; "" for a finished job.
func (r *Runner) fingerprint(ctx context.Context, caller Caller, id string) (string, error) {
	job, err := r.owned(ctx, caller, id)
	if err != nil {
		return "", err
	}
	if !store.IsLive(job.Status) {
		return "", nil
	}
	ts, err := r.store.Summary(ctx, id, "")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(job.Status)
	for _, t := range ts {
		b.WriteString(t.Status[:1])
	}
	return b.String(), nil
}

// watcher is the channel of a job's next change and how many waiters
// hold it.
type watcher struct {
	ch      chan struct{}
	waiters int
}

// Watch returns a channel closed at the job's next change (a target
// started or finished, the job finished or was cancelled) and the release
// the waiter calls when it stops waiting; the last release frees the
// entry. Subscribe before reading the job, so no change falls between the
// read and the wait, and only for a job the caller owns: an entry per id
// asked about would let anyone grow the map.
func (r *Runner) Watch(id string) (changed <-chan struct{}, release func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w, ok := r.watchers[id]
	if !ok {
		w = &watcher{ch: make(chan struct{})}
		r.watchers[id] = w
	}
	w.waiters++
	var once sync.Once
	return w.ch, func() { once.Do(func() { r.unwatch(id, w) }) }
}

func (r *Runner) unwatch(id string, w *watcher) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w.waiters--
	if w.waiters == 0 && r.watchers[id] == w {
		delete(r.watchers, id)
	}
}

// Watching returns how many jobs have waiters, for tests and metrics.
func (r *Runner) Watching() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.watchers)
}

func (r *Runner) notify(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if w, ok := r.watchers[id]; ok {
		close(w.ch)
		delete(r.watchers, id)
	}
}

func (r *Runner) add(j *liveJob) {
	r.mu.Lock()
	r.addLocked(j)
	r.mu.Unlock()
	r.poke()
}

// addLocked puts a job in the ring unless it is there already: on a shared
// store, discover may have found a job between its commit and Submit's add,
// and a job in the ring twice would take two turns in a row.
func (r *Runner) addLocked(j *liveJob) {
	for _, known := range r.live {
		if known.id == j.id {
			return
		}
	}
	r.live = append(r.live, j)
	r.reportLocked()
}

func (r *Runner) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// dropFinishedLocked removes cancelled jobs no worker holds.
func (r *Runner) dropFinishedLocked() {
	kept := r.live[:0]
	for _, j := range r.live {
		if !j.cancelled || j.held {
			kept = append(kept, j)
		}
	}
	clear(r.live[len(kept):])
	r.live = kept
	r.reportLocked()
}

func (r *Runner) reportLocked() { r.opts.Hooks.Load(len(r.live), r.inFlight) }

func (r *Runner) sweeper(ctx context.Context) {
	t := time.NewTicker(r.opts.SweepEvery)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-ctx.Done():
			return
		case <-t.C:
			r.sweep(ctx)
		}
	}
}

func (r *Runner) sweep(ctx context.Context) {
	now := r.opts.Now().UTC()
	if n, err := r.store.SweepJobs(ctx, now.Add(-r.opts.Limits.TTL), now.Add(-EvictGrace), r.opts.Limits.MaxBytes); err != nil {
		r.log.Error("batch sweep", "error", err)
	} else if n > 0 {
		r.log.Info("batch jobs removed", "jobs", n)
	}
}
