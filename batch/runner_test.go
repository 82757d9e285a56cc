package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testwait"
	"github.com/siftd/sift/store"
)

// recorder is a FetchFunc's memory: what was fetched, for whom, and how
// many fetches of one job overlapped.
type recorder struct {
	mu      sync.Mutex
	calls   []string // "caller url"
	running map[string]int
	peak    int
	events  []string
}

func (r *recorder) enter(c Caller, t Target) func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running == nil {
		r.running = map[string]int{}
	}
	r.calls = append(r.calls, c.Name+" "+t.URL)
	job := strings.Split(t.URL, "/")[2]
	r.running[job]++
	r.peak = max(r.peak, r.running[job])
	return func() {
		r.mu.Lock()
		r.running[job]--
		r.mu.Unlock()
	}
}

func (r *recorder) Calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// Hooks, recorded.
func (r *recorder) Job(o string)              { r.record("job " + o) }
func (r *recorder) JobFinished(time.Duration) {}
func (r *recorder) Target(o string, _ time.Duration, n int) {
	r.record(fmt.Sprintf("target %s %d", o, n))
}
func (r *recorder) Load(int, int) {}
func (r *recorder) record(e string) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}
func (r *recorder) Events() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

func newRunner(t *testing.T, open opener, fetch FetchFunc, opts Options) (*Runner, *store.Store) {
	t.Helper()
	st := open(t)
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	r := New(st, fetch, opts)
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = r.Close(ctx)
	})
	return r, st
}

func targets(job string, n int) []Target {
	out := make([]Target, n)
	for i := range out {
		out[i] = Target{URL: fmt.Sprintf("http://%s/%d", job, i)}
	}
	return out
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

var alice, bob, carol = Caller{Name: "alice", Class: "open"}, Caller{Name: "bob", Class: "open"}, Caller{Name: "carol", Class: "restricted"}

// waitFor polls the job until it reaches status.
func waitFor(t *testing.T, r *Runner, c Caller, id, status string) *store.BatchJob {
	t.Helper()
	var job *store.BatchJob
	testwait.For(t, fmt.Sprintf("job %s to become %s", id, status), func() bool {
		var err error
		if job, err = r.Job(context.Background(), c, id); err != nil {
			t.Fatal(err)
		}
		return job.Status == status
	})
	return job
}

func submit(t *testing.T, r *Runner, c Caller, ts []Target) *store.BatchJob {
	t.Helper()
	job, reused, err := r.Submit(context.Background(), c, ts)
	if err != nil || reused {
		t.Fatalf("submit: reused=%v err=%v", reused, err)
	}
	return job
}

// Targets drain one at a time in index order, jobs take turns, and the
// caller of each job is passed to each of its fetches.
func TestSerialRoundRobin(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		rec := &recorder{}
		release := make(chan struct{})
		var once sync.Once
		fetch := func(_ context.Context, c Caller, tg Target) ([]byte, error) {
			defer rec.enter(c, tg)()
			once.Do(func() { <-release }) // hold the first target until both jobs exist
			return []byte(`{"ok":true}`), nil
		}
		r, _ := newRunner(t, open, fetch, Options{Limits: Limits{Workers: 2}})
		a := submit(t, r, alice, targets("a", 3))
		b := submit(t, r, bob, targets("b", 3))
		close(release)
		waitFor(t, r, alice, a.ID, store.JobDone)
		waitFor(t, r, bob, b.ID, store.JobDone)
		calls := rec.Calls()
		var aOrder, bOrder []string
		for _, c := range calls {
			switch {
			case strings.HasPrefix(c, "alice http://a/"):
				aOrder = append(aOrder, c)
			case strings.HasPrefix(c, "bob http://b/"):
				bOrder = append(bOrder, c)
			default:
				t.Fatalf("fetch %q ran as the wrong caller", c)
			}
		}
		if !slices.IsSorted(aOrder) || !slices.IsSorted(bOrder) || len(aOrder) != 3 || len(bOrder) != 3 {
			t.Fatalf("calls %q: want each job's targets once, in order", calls)
		}
		if rec.peak != 1 {
			t.Fatalf("%d targets of one job ran at once", rec.peak)
		}
	})
}

// With one worker the jobs alternate target by target.
func TestRoundRobinOneWorker(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		rec := &recorder{}
		release := make(chan struct{})
		var once sync.Once
		fetch := func(_ context.Context, c Caller, tg Target) ([]byte, error) {
			defer rec.enter(c, tg)()
			once.Do(func() { <-release })
			return []byte(`{}`), nil
		}
		r, _ := newRunner(t, open, fetch, Options{})
		a := submit(t, r, alice, targets("a", 3))
		b := submit(t, r, bob, targets("b", 2))
		if job, _ := r.Job(context.Background(), bob, b.ID); job.Status != store.JobQueued {
			t.Fatalf("second job is %s before a worker took it, want queued", job.Status)
		}
		close(release)
		waitFor(t, r, alice, a.ID, store.JobDone)
		want := []string{"alice http://a/0", "bob http://b/0", "alice http://a/1", "bob http://b/1", "alice http://a/2"}
		if got := rec.Calls(); !slices.Equal(got, want) {
			t.Fatalf("order %q, want %q", got, want)
		}
	})
}

func TestFailureIsolation(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		fetch := func(_ context.Context, _ Caller, tg Target) ([]byte, error) {
			if strings.HasSuffix(tg.URL, "/1") || strings.HasPrefix(tg.URL, "http://bad/") {
				return nil, &TargetError{Message: "blocked: private address 10.0.0.5", Outcome: "blocked"}
			}
			return []byte(`{"content":"x"}`), nil
		}
		r, _ := newRunner(t, open, fetch, Options{})
		ctx := context.Background()
		job := submit(t, r, alice, targets("a", 3))
		waitFor(t, r, alice, job.ID, store.JobPartial)
		_, ts, _, err := r.Results(ctx, alice, job.ID, store.PageQuery{})
		if err != nil || ts[0].Status != store.TargetDone || ts[1].Error != "blocked: private address 10.0.0.5" || ts[2].Status != store.TargetDone {
			t.Fatalf("targets %+v %v", ts, err)
		}
		bad := submit(t, r, bob, targets("bad", 2))
		waitFor(t, r, bob, bad.ID, store.JobFailed)
	})
}

func TestIdempotentResubmit(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r, _ := newRunner(t, open, func(context.Context, Caller, Target) ([]byte, error) { return []byte(`{}`), nil }, Options{})
		ctx := context.Background()
		first := submit(t, r, alice, targets("a", 2))
		again, reused, err := r.Submit(ctx, alice, targets("a", 2))
		if err != nil || !reused || again.ID != first.ID {
			t.Fatalf("resubmit: %v %v %v", again, reused, err)
		}
		waitFor(t, r, alice, first.ID, store.JobDone)
		if again, reused, _ := r.Submit(ctx, alice, targets("a", 2)); !reused || again.ID != first.ID {
			t.Fatal("a done job was not reused")
		}
		if other, reused, err := r.Submit(ctx, bob, targets("a", 2)); err != nil || reused || other.ID == first.ID {
			t.Fatal("another caller got alice's job")
		}
		withOptions := targets("a", 2)
		withOptions[0].Options = []byte(`{"mode":"raw"}`)
		if _, reused, _ := r.Submit(ctx, alice, withOptions); reused {
			t.Fatal("other options reused the job")
		}
	})
}

func TestResubmitAfterCancelIsANewJob(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		hold := make(chan struct{})
		r, _ := newRunner(t, open, func(context.Context, Caller, Target) ([]byte, error) { <-hold; return []byte(`{}`), nil }, Options{})
		defer close(hold)
		ctx := context.Background()
		first := submit(t, r, alice, targets("a", 2))
		if err := r.Cancel(ctx, alice, first.ID); err != nil {
			t.Fatal(err)
		}
		if again, reused, err := r.Submit(ctx, alice, targets("a", 2)); err != nil || reused || again.ID == first.ID {
			t.Fatalf("resubmit after cancel: %v reused=%v err=%v", again, reused, err)
		}
	})
}

func TestCaps(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		hold := make(chan struct{})
		r, _ := newRunner(t, open, func(context.Context, Caller, Target) ([]byte, error) { <-hold; return []byte(`{}`), nil },
			Options{Limits: Limits{TargetsPerJob: 4, JobsTotal: 2}})
		defer close(hold)
		ctx := context.Background()
		if _, _, err := r.Submit(ctx, alice, nil); !errors.Is(err, ErrNoTargets) {
			t.Fatalf("empty job: %v", err)
		}
		if _, _, err := r.Submit(ctx, alice, targets("a", 5)); !errors.Is(err, ErrTooManyTargets) {
			t.Fatalf("5 targets over a cap of 4: %v", err)
		}
		submit(t, r, alice, targets("a", 4))
		if _, _, err := r.Submit(ctx, alice, targets("other", 1)); !errors.Is(err, ErrCallerBusy) {
			t.Fatalf("second live job of one caller: %v", err)
		}
		submit(t, r, bob, targets("b", 1))
		if _, _, err := r.Submit(ctx, carol, targets("c", 1)); !errors.Is(err, ErrBusy) {
			t.Fatalf("third live job over a total of 2: %v", err)
		}
	})
}

// Concurrent submissions never get past the caps.
func TestCapsHoldUnderConcurrency(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		hold := make(chan struct{})
		r, st := newRunner(t, open, func(context.Context, Caller, Target) ([]byte, error) { <-hold; return []byte(`{}`), nil },
			Options{Limits: Limits{JobsTotal: 3}})
		defer close(hold)
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Go(func() {
				c := Caller{Name: fmt.Sprintf("c%d", i%5)}
				_, _, _ = r.Submit(context.Background(), c, targets(fmt.Sprintf("j%d", i), 1))
			})
		}
		wg.Wait()
		live, err := st.LiveJobs(context.Background())
		if total := len(live); err != nil || total != 3 {
			t.Fatalf("%d live jobs under a cap of 3 (%v)", len(live), err)
		}
	})
}

func TestCancelLetsTheInFlightTargetFinish(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		started, hold := make(chan struct{}), make(chan struct{})
		rec := &recorder{}
		fetch := func(_ context.Context, c Caller, tg Target) ([]byte, error) {
			defer rec.enter(c, tg)()
			close(started)
			<-hold
			return []byte(`{"content":"first"}`), nil
		}
		r, _ := newRunner(t, open, fetch, Options{Hooks: rec})
		ctx := context.Background()
		job := submit(t, r, alice, targets("a", 3))
		<-started
		if err := r.Cancel(ctx, bob, job.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("bob cancelled alice's job: %v", err)
		}
		if err := r.Cancel(ctx, alice, job.ID); err != nil {
			t.Fatal(err)
		}
		close(hold)
		var tg *store.BatchTarget
		testwait.For(t, "the in-flight target to be stored", func() bool {
			var err error
			if tg, err = r.Target(ctx, alice, job.ID, 0); err != nil {
				t.Fatal(err)
			}
			return tg.Status == store.TargetDone
		})
		if string(tg.Result) != `{"content":"first"}` {
			t.Fatalf("in-flight result %q", tg.Result)
		}
		time.Sleep(50 * time.Millisecond) // a worker that ignored the cancel would start target 1 now
		_, ts, _ := r.Summary(ctx, alice, job.ID, "")
		if ts[1].Status != store.TargetPending || ts[2].Status != store.TargetPending || len(rec.Calls()) != 1 {
			t.Fatalf("after cancel: targets %+v, calls %q", ts, rec.Calls())
		}
		if j, _ := r.Job(ctx, alice, job.ID); j.Status != store.JobCancelled {
			t.Fatalf("job %s", j.Status)
		}
		if err := r.Cancel(ctx, alice, job.ID); !errors.Is(err, ErrAlreadyCancelled) {
			t.Fatalf("second cancel: %v", err)
		}
	})
}

func TestBusyIsRetried(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		var mu sync.Mutex
		tries := map[string]int{}
		fetch := func(_ context.Context, _ Caller, tg Target) ([]byte, error) {
			mu.Lock()
			defer mu.Unlock()
			tries[tg.URL]++
			if tg.URL == "http://a/0" && tries[tg.URL] < 3 {
				return nil, fmt.Errorf("gate full: %w", ErrRetryLater)
			}
			if strings.HasPrefix(tg.URL, "http://never/") {
				return nil, fmt.Errorf("gate full: %w", ErrRetryLater)
			}
			return []byte(`{}`), nil
		}
		rec := &recorder{}
		patient, _ := newRunner(t, open, fetch, Options{RetryEvery: 20 * time.Millisecond, RetryFor: time.Minute, Hooks: rec})
		ctx := context.Background()
		job := submit(t, patient, alice, targets("a", 2))
		waitFor(t, patient, alice, job.ID, store.JobDone)
		if err := patient.Close(ctx); err != nil { // on a shared store it would take bob's job too
			t.Fatal(err)
		}
		// Always busy: retried (at least once; how often depends on the
		// machine's speed, at most every RetryEvery) until RetryFor passes.
		r, _ := newRunner(t, open, fetch, Options{RetryEvery: 20 * time.Millisecond, RetryFor: 300 * time.Millisecond, Hooks: rec})
		never := submit(t, r, bob, targets("never", 1))
		waitFor(t, r, bob, never.ID, store.JobFailed)
		tg, _ := r.Target(ctx, bob, never.ID, 0)
		mu.Lock()
		defer mu.Unlock()
		if tries["http://a/0"] != 3 || tries["http://a/1"] != 1 || !strings.HasPrefix(tg.Error, "busy: still busy after 300ms") ||
			tries["http://never/0"] < 2 || tries["http://never/0"] > 16 {
			t.Fatalf("tries %v, never's error %q", tries, tg.Error)
		}
		if ev := rec.Events(); slices.Contains(ev, "target busy 0") == false || slices.Index(ev, "target ok 2") < 0 {
			t.Fatalf("hooks %q", ev)
		}
	})
}

func TestPanicCostsOneTargetAndNeverEchoes(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		fetch := func(_ context.Context, _ Caller, tg Target) ([]byte, error) {
			if strings.HasSuffix(tg.URL, "/0") {
				panic("SECRET page text from the origin")
			}
			return []byte(`{}`), nil
		}
		r, _ := newRunner(t, open, fetch, Options{})
		job := submit(t, r, alice, targets("a", 2))
		waitFor(t, r, alice, job.ID, store.JobPartial)
		tg, _ := r.Target(context.Background(), alice, job.ID, 0)
		if tg.Status != store.TargetFailed || strings.Contains(tg.Error, "SECRET") || tg.Error == "" {
			t.Fatalf("panicking target %+v", tg)
		}
	})
}

func TestTargetDeadline(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		fetch := func(ctx context.Context, _ Caller, _ Target) ([]byte, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		r, _ := newRunner(t, open, fetch, Options{TargetTimeout: 50 * time.Millisecond})
		job := submit(t, r, alice, targets("a", 1))
		waitFor(t, r, alice, job.ID, store.JobFailed)
		if tg, _ := r.Target(context.Background(), alice, job.ID, 0); !strings.HasPrefix(tg.Error, "timeout:") {
			t.Fatalf("error %q", tg.Error)
		}
	})
}

func TestOwnership(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r, _ := newRunner(t, open, func(context.Context, Caller, Target) ([]byte, error) { return []byte(`{}`), nil }, Options{})
		ctx := context.Background()
		job := submit(t, r, alice, targets("a", 1))
		if _, err := r.Job(ctx, bob, job.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("bob read alice's job: %v", err)
		}
		if _, err := r.Target(ctx, bob, job.ID, 0); !errors.Is(err, ErrNotFound) {
			t.Fatalf("bob read alice's target: %v", err)
		}
		if _, err := r.Target(ctx, alice, job.ID, 7); !errors.Is(err, ErrNotFound) {
			t.Fatalf("target 7 of 1: %v", err)
		}
		if _, err := r.Job(ctx, alice, "nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("no such job: %v", err)
		}
	})
}

func TestWatchSeesChanges(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		hold := make(chan struct{})
		r, _ := newRunner(t, open, func(context.Context, Caller, Target) ([]byte, error) { <-hold; return []byte(`{}`), nil }, Options{})
		ctx := context.Background()
		job := submit(t, r, alice, targets("a", 1))
		waitFor(t, r, alice, job.ID, store.JobRunning)
		changed, release := r.Watch(job.ID)
		defer release()
		select {
		case <-changed:
			t.Fatal("closed before any change")
		case <-time.After(20 * time.Millisecond):
		}
		close(hold)
		select {
		case <-changed:
		case <-time.After(testwait.Deadline):
			t.Fatal("no change seen when the target finished")
		}
		if j, _ := r.Job(ctx, alice, job.ID); j.TargetsDone != 1 {
			t.Fatalf("after the change: %+v", j)
		}
	})
}

// A new runner over a store with work left (SQLite: the process died)
// fails the target that was running (restart), runs the pending ones, so
// a job with done and failed targets ends partial, and keeps finished
// results.
func TestRestartRunsPendingWork(t *testing.T) {
	dir := t.TempDir()
	st, err := store.OpenSQLite(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	hold := make(chan struct{})
	first := New(st, func(_ context.Context, _ Caller, tg Target) ([]byte, error) {
		if strings.HasPrefix(tg.URL, "http://done/") {
			return []byte(`{"content":"kept"}`), nil
		}
		<-hold
		return []byte(`{}`), nil
	}, Options{Logger: quiet})
	if err := first.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	done := submit(t, first, carol, targets("done", 1))
	waitFor(t, first, carol, done.ID, store.JobDone)
	running := submit(t, first, alice, targets("a", 3))
	waitFor(t, first, alice, running.ID, store.JobRunning)
	queued := submit(t, first, bob, targets("b", 2))
	// The first process dies: its worker is abandoned mid-target.
	first.stopped.Do(func() { close(first.stop) })

	rec := &recorder{}
	var ran []string
	var mu sync.Mutex
	second := New(st, func(_ context.Context, _ Caller, tg Target) ([]byte, error) {
		mu.Lock()
		ran = append(ran, tg.URL)
		mu.Unlock()
		return []byte(`{}`), nil
	}, Options{Hooks: rec, Logger: quiet})
	if err := second.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer second.Close(context.Background())
	job := waitFor(t, second, alice, running.ID, store.JobPartial)
	if job.TargetsDone != 3 {
		t.Errorf("the resumed job counts %d of 3 finished", job.TargetsDone)
	}
	if ts := targetsOf(t, second, alice, running.ID); ts[0] != store.TargetFailed || ts[1] != store.TargetDone || ts[2] != store.TargetDone {
		t.Errorf("the resumed job's targets %v, want failed (restart), done, done", ts)
	}
	waitFor(t, second, bob, queued.ID, store.JobDone)
	if tg, _ := second.Target(context.Background(), carol, done.ID, 0); string(tg.Result) != `{"content":"kept"}` {
		t.Fatalf("done result after restart: %q", tg.Result)
	}
	mu.Lock()
	slices.Sort(ran)
	if !slices.Equal(ran, []string{"http://a/1", "http://a/2", "http://b/0", "http://b/1"}) {
		t.Errorf("after the restart ran %q, want the four pending targets", ran)
	}
	mu.Unlock()
	ev := rec.Events()
	slices.Sort(ev)
	if !slices.Equal(ev, []string{"job done", "job partial", "job restart", "target ok 2", "target ok 2", "target ok 2", "target ok 2"}) {
		t.Fatalf("hooks %q", ev)
	}
	close(hold)
}

// targetsOf lists the statuses of a job's targets, in order.
func targetsOf(t *testing.T, r *Runner, c Caller, id string) []string {
	t.Helper()
	_, page, _, err := r.Results(context.Background(), c, id, store.PageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tg := range page {
		out = append(out, tg.Status)
	}
	return out
}

// TestAwaitKeepsNoWatcher: a wait on another caller's job, on no job, or
// on an id longer than an id is refused before anything is kept; a wait
// on one's own job gives its watcher up when it returns, however it ends.
func TestAwaitKeepsNoWatcher(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		hold := make(chan struct{})
		defer close(hold)
		r, _ := newRunner(t, open, func(context.Context, Caller, Target) ([]byte, error) { <-hold; return []byte(`{}`), nil }, Options{})
		ctx := context.Background()
		job := submit(t, r, alice, targets("a", 2))
		waitFor(t, r, alice, job.ID, store.JobRunning)
		for _, tc := range []struct {
			caller Caller
			id     string
			want   error
		}{
			{bob, job.ID, ErrNotFound},
			{alice, strings.Repeat("0", IDLen), ErrNotFound},
			{alice, strings.Repeat("0", IDLen+1), ErrBadID},
			{alice, strings.Repeat("x", 60<<10), ErrBadID},
		} {
			if err := r.Await(ctx, tc.caller, tc.id, time.Second); !errors.Is(err, tc.want) {
				t.Errorf("%s on %.40s: %v, want %v", tc.caller.Name, tc.id, err, tc.want)
			}
		}
		if n := r.Watching(); n != 0 {
			t.Fatalf("%d watchers after refused waits", n)
		}
		if err := r.Await(ctx, alice, job.ID, 10*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		waitCtx, cancel := context.WithCancel(ctx)
		done := make(chan error)
		go func() { done <- r.Await(waitCtx, alice, job.ID, time.Minute) }()
		for deadline := time.Now().Add(5 * time.Second); r.Watching() == 0; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the waiter never watched")
			}
		}
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
		if n := r.Watching(); n != 0 {
			t.Fatalf("%d watchers after the waiters left", n)
		}
	})
}
