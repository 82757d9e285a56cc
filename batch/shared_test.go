package batch

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/pgtest"
	"github.com/siftd/sift/internal/testkit/testwait"
	"github.com/siftd/sift/store"
)

// instance is one sift process's runner on a shared PostgreSQL: its own
// connections, so closing them is the process dying.
type instance struct {
	runner *Runner
	store  *store.Store
}

func startInstance(t *testing.T, dsn string, fetch FetchFunc, callers ...Caller) *instance {
	t.Helper()
	return startInstanceWith(t, dsn, fetch, Options{Callers: callers})
}

// startInstanceWith starts an instance with opts, its timings shortened.
func startInstanceWith(t *testing.T, dsn string, fetch FetchFunc, opts Options) *instance {
	t.Helper()
	st, err := store.OpenPostgres(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	opts.Logger, opts.ClaimLease, opts.PollEvery = quiet, 300*time.Millisecond, 20*time.Millisecond
	r := New(st, fetch, opts)
	if err := r.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = r.Close(ctx)
		_ = st.Close()
	})
	return &instance{runner: r, store: st}
}

// TestSharedQueueSurvivesDeadInstances: on one PostgreSQL, an instance
// that dies mid-target leaves it to the others once its claim lapses; a
// target whose second instance dies too fails as lost, and the job goes
// on with its next target. No target runs twice but for those retries.
func TestSharedQueueSurvivesDeadInstances(t *testing.T) {
	dsn := pgtest.DB(t)
	var mu sync.Mutex
	var calls []string
	started := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	hang := make(chan struct{})
	defer close(hang)
	fetcher := func(name string) FetchFunc {
		return func(ctx context.Context, _ Caller, tg Target) ([]byte, error) {
			mu.Lock()
			calls = append(calls, name+" "+tg.URL)
			mu.Unlock()
			if ch, ok := started[name]; ok && strings.HasSuffix(tg.URL, "/0") {
				close(ch)
				<-hang // this instance dies mid-target
				return nil, ctx.Err()
			}
			return []byte(`{}`), nil
		}
	}
	a := startInstance(t, dsn, fetcher("a"))
	job, _, err := a.runner.Submit(context.Background(), alice, targets("x", 2))
	if err != nil {
		t.Fatal(err)
	}
	<-started["a"]
	b := startInstance(t, dsn, fetcher("b"))
	a.store.Close() // a dies: its claim is no longer renewed
	<-started["b"]
	c := startInstance(t, dsn, fetcher("c"))
	b.store.Close() // b dies on the same target

	testwait.For(t, "the job to end partial", func() bool {
		got, err := c.runner.Job(context.Background(), alice, job.ID)
		return err == nil && got.Status == store.JobPartial
	})
	t0, _ := c.runner.Target(context.Background(), alice, job.ID, 0)
	t1, _ := c.runner.Target(context.Background(), alice, job.ID, 1)
	if t0.Error != store.LostError || t1.Status != store.TargetDone {
		t.Fatalf("targets %+v %+v", t0, t1)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(calls, ",") != "a http://x/0,b http://x/0,c http://x/1" {
		t.Fatalf("fetches %q", calls)
	}
}

// TestSharedCapsAcrossInstances: the per-caller and total caps count the
// live jobs of every instance.
func TestSharedCapsAcrossInstances(t *testing.T) {
	dsn := pgtest.DB(t)
	hold := make(chan struct{})
	defer close(hold)
	fetch := func(ctx context.Context, _ Caller, _ Target) ([]byte, error) {
		select {
		case <-hold:
		case <-ctx.Done():
		}
		return []byte(`{}`), nil
	}
	a, b := startInstance(t, dsn, fetch), startInstance(t, dsn, fetch)
	ctx := context.Background()
	job, _, err := a.runner.Submit(ctx, alice, targets("a", 1))
	if err != nil {
		t.Fatal(err)
	}
	if again, reused, err := b.runner.Submit(ctx, alice, targets("a", 1)); err != nil || !reused || again.ID != job.ID {
		t.Fatalf("resubmit through another instance: %v %v %v", again, reused, err)
	}
	if _, _, err := b.runner.Submit(ctx, alice, targets("other", 1)); err != ErrCallerBusy {
		t.Fatalf("second live job through another instance: %v", err)
	}
	if err := b.runner.Cancel(ctx, alice, job.ID); err != nil {
		t.Fatalf("cancel through another instance: %v", err)
	}
	if got, _ := a.runner.Job(ctx, alice, job.ID); got.Status != store.JobCancelled {
		t.Fatalf("job %s after a cancel elsewhere", got.Status)
	}
}

// TestDiscoverThenAddKeepsOneEntry: on a shared store, discover can find a
// job between its commit and Submit's add; the job must still take one
// turn at a time, so it stands in the ring once.
func TestDiscoverThenAddKeepsOneEntry(t *testing.T) {
	st, err := store.OpenPostgres(context.Background(), pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := New(st, func(context.Context, Caller, Target) ([]byte, error) { return []byte(`{}`), nil }, Options{Logger: quiet})
	now := time.Now().UTC()
	job := &store.BatchJob{ID: "j1", Caller: "alice", CallerClass: "open", IdemKey: "k", Status: store.JobQueued, CreatedAt: now, Lease: now}
	if _, err := st.SubmitJob(context.Background(), job, []store.BatchTarget{{URL: "http://a/0", Options: []byte("{}")}}, now.Add(-time.Hour), store.Caps{PerCaller: 1, Total: 8}); err != nil {
		t.Fatal(err)
	}
	r.discover(context.Background())
	r.add(&liveJob{id: "j1", caller: alice, created: now})
	if len(r.live) != 1 {
		t.Fatalf("the job stands in the ring %d times", len(r.live))
	}
}
