package batch

import (
	"context"
	"errors"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/pgtest"
	"github.com/siftd/sift/internal/testkit/testwait"
	"github.com/siftd/sift/store"
)

// alice's key, and another caller named alice with another key (renamed,
// re-keyed, or defined so on another instance).
var (
	aliceA = Caller{Name: "alice", Key: KeyID([]byte("key A")), Class: "open"}
	aliceB = Caller{Name: "alice", Key: KeyID([]byte("key B")), Class: "open"}
)

// TestJobsAreOwnedByNameAndKey: a caller of the same name with another key
// neither reads, cancels nor reuses another's job.
func TestJobsAreOwnedByNameAndKey(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		hold := make(chan struct{})
		defer close(hold)
		r, _ := newRunner(t, open, func(ctx context.Context, _ Caller, _ Target) ([]byte, error) {
			select {
			case <-hold:
			case <-ctx.Done():
			}
			return []byte(`{}`), nil
		}, Options{})
		ctx := context.Background()
		job := submit(t, r, aliceA, targets("a", 2))
		if _, err := r.Job(ctx, aliceB, job.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("alice with key B read key A's job: %v", err)
		}
		if _, err := r.Target(ctx, aliceB, job.ID, 0); !errors.Is(err, ErrNotFound) {
			t.Fatalf("alice with key B read key A's target: %v", err)
		}
		if err := r.Cancel(ctx, aliceB, job.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("alice with key B cancelled key A's job: %v", err)
		}
		again, reused, err := r.Submit(ctx, aliceB, targets("a", 2))
		if err == nil && (reused || again.ID == job.ID) {
			t.Fatal("alice with key B was answered with key A's job")
		}
		if got, err := r.Job(ctx, aliceA, job.ID); err != nil || !live(got.Status) {
			t.Fatalf("key A's own job: %v %v", got, err)
		}
	})
}

// live is store.IsLive, for brevity.
func live(status string) bool { return store.IsLive(status) }

// TestOlderJobsGoToTheirCallerByName: a job stored before jobs carried
// their caller's key is given, at start, to the configured caller of its
// name, and readable by that caller's key alone from then on.
func TestOlderJobsGoToTheirCallerByName(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		st := open(t)
		ctx := context.Background()
		now := time.Now().UTC()
		old := &store.BatchJob{ID: "0123456789abcdef0123456789abcdef", Caller: "alice", CallerClass: "open",
			IdemKey: "k", Status: store.JobDone, CreatedAt: now, Lease: now}
		if _, err := st.SubmitJob(ctx, old, []store.BatchTarget{{URL: "http://a/0", Options: []byte("{}")}}, now.Add(-time.Hour), store.Caps{PerCaller: 8, Total: 8}); err != nil {
			t.Fatal(err)
		}
		r := New(st, func(context.Context, Caller, Target) ([]byte, error) { return []byte(`{}`), nil },
			Options{Logger: quiet, Callers: []Caller{aliceA, bob}})
		if err := r.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer r.Close(ctx)
		if _, err := r.Job(ctx, aliceA, old.ID); err != nil {
			t.Fatalf("its caller cannot read the older job: %v", err)
		}
		if _, err := r.Job(ctx, aliceB, old.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("alice with another key read the older job: %v", err)
		}
	})
}

// fetchesBy runs a 30-target job accepted by an instance with opts a
// beside an instance with opts b on one PostgreSQL, and counts the
// targets each fetched.
func fetchesBy(t *testing.T, a, b Options) map[string]int {
	t.Helper()
	dsn := pgtest.DB(t)
	var mu sync.Mutex
	by := map[string]int{}
	fetchAs := func(name string) FetchFunc {
		return func(context.Context, Caller, Target) ([]byte, error) {
			mu.Lock()
			by[name]++
			mu.Unlock()
			time.Sleep(time.Millisecond) // let the other instance's workers look
			return []byte(`{}`), nil
		}
	}
	ia := startInstanceWith(t, dsn, fetchAs("a"), a)
	startInstanceWith(t, dsn, fetchAs("b"), b)
	ctx := context.Background()
	job, _, err := ia.runner.Submit(ctx, aliceA, targets("a", 30))
	if err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the job to finish", func() bool {
		got, err := ia.runner.Job(ctx, aliceA, job.ID)
		return err == nil && !live(got.Status)
	})
	mu.Lock()
	defer mu.Unlock()
	return maps.Clone(by)
}

// TestSharedInstanceKeepsToItsGuardPolicy: on one PostgreSQL, an instance
// with another guard policy (the same callers) fetches none of the
// targets of a job another accepted, so no target is fetched under a
// laxer guard than the one that accepted it.
func TestSharedInstanceKeepsToItsGuardPolicy(t *testing.T) {
	by := fetchesBy(t, Options{Callers: []Caller{aliceA}, Policy: "strict"}, Options{Callers: []Caller{aliceA}, Policy: "lax"})
	if by["b"] != 0 || by["a"] != 30 {
		t.Fatalf("targets fetched: %v; want all 30 by the instance that accepted the job", by)
	}
}

// TestSharedInstanceTakesOnlyItsCallersJobs: on one PostgreSQL, an
// instance whose alice has another key fetches none of the targets of a
// job accepted for the other instance's alice; that instance's guard and
// limits apply to all of them.
func TestSharedInstanceTakesOnlyItsCallersJobs(t *testing.T) {
	dsn := pgtest.DB(t)
	var mu sync.Mutex
	by := map[string]int{}
	fetchAs := func(name string) FetchFunc {
		return func(context.Context, Caller, Target) ([]byte, error) {
			mu.Lock()
			by[name]++
			mu.Unlock()
			time.Sleep(time.Millisecond) // let the other instance's workers look
			return []byte(`{}`), nil
		}
	}
	a := startInstance(t, dsn, fetchAs("a"), aliceA)
	b := startInstance(t, dsn, fetchAs("b"), aliceB)
	ctx := context.Background()
	job, _, err := a.runner.Submit(ctx, aliceA, targets("a", 30))
	if err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the job to finish", func() bool {
		got, err := a.runner.Job(ctx, aliceA, job.ID)
		return err == nil && !live(got.Status)
	})
	mu.Lock()
	defer mu.Unlock()
	if by["b"] != 0 || by["a"] != 30 {
		t.Fatalf("targets fetched: %v; want all 30 by instance a", by)
	}
	if _, err := b.runner.Job(ctx, aliceB, job.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the other instance's alice read the job: %v", err)
	}
}

// TestSetIdentityAppliesToNewJobs: after a reload replaces the runner's
// callers and guard policy, a job accepted from then on records the new
// policy, so instances sharing the database hold it to the new guard.
func TestSetIdentityAppliesToNewJobs(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		r, st := newRunner(t, open, func(context.Context, Caller, Target) ([]byte, error) { return []byte(`{}`), nil },
			Options{Callers: []Caller{aliceA}, Policy: "strict"})
		ctx := context.Background()
		carol := Caller{Name: "carol", Key: KeyID([]byte("key C")), Class: "open"}
		before := submit(t, r, aliceA, targets("a", 1))
		r.SetIdentity([]Caller{carol}, "lax")
		after := submit(t, r, carol, targets("b", 1))
		for id, want := range map[string]string{before.ID: "strict", after.ID: "lax"} {
			job, err := st.Job(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if job.Policy != want {
				t.Errorf("job %s recorded policy %q, want %q", id, job.Policy, want)
			}
		}
	})
}
