package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// claimAt is worker w1's claim at now, for a minute.
func claimAt(now time.Time) Claim { return Claim{Owner: "w1", Now: now, Until: now.Add(time.Minute)} }

func newJob(t *testing.T, s *Store, id, caller, idem string, n int, at time.Time) {
	t.Helper()
	targets := make([]BatchTarget, n)
	for i := range targets {
		targets[i] = BatchTarget{URL: fmt.Sprintf("http://a.example/%d", i), Options: []byte(`{}`)}
	}
	job := &BatchJob{ID: id, Caller: caller, CallerClass: "open", IdemKey: idem, Status: JobQueued, CreatedAt: at, Lease: at}
	if err := s.CreateJob(context.Background(), job, targets); err != nil {
		t.Fatal(err)
	}
}

// runTarget claims the next target of id and finishes it with out.
func runTarget(t *testing.T, s *Store, id string, out Outcome, at time.Time) int {
	t.Helper()
	ctx := context.Background()
	tg, state, _, err := s.ClaimTarget(ctx, id, claimAt(at))
	if err != nil || state != Claimed {
		t.Fatalf("claim on %s: state=%v err=%v", id, state, err)
	}
	if f, err := s.FinishTarget(ctx, id, tg.Idx, "w1", out, at, Budget{}); err != nil || !f.Counted {
		t.Fatalf("finish %s/%d: %+v %v", id, tg.Idx, f, err)
	}
	return tg.Idx
}

func jobOf(t *testing.T, s *Store, id string) *BatchJob {
	t.Helper()
	j, err := s.Job(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestBatchRoundTripInOrder(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "j1", "alice", "k1", 3, t0)
		for want := range 3 {
			out := Outcome{Result: []byte(`{"content":"x"}`)}
			if want == 1 {
				out = Outcome{Error: "blocked: private address 10.0.0.5", Hint: "none"}
			}
			if got := runTarget(t, s, "j1", out, t0.Add(time.Duration(want+1)*time.Minute)); got != want {
				t.Fatalf("claimed %d, want %d (index order)", got, want)
			}
		}
		if _, state, _, _ := s.ClaimTarget(ctx, "j1", claimAt(t0)); state != Finished {
			t.Fatalf("a finished job answered %v", state)
		}
		j := jobOf(t, s, "j1")
		if j.Status != JobPartial || j.TargetsDone != 3 || !j.Lease.Equal(t0.Add(3*time.Minute)) || j.NBytes != 30 {
			t.Fatalf("job %+v", j)
		}
		ts, err := s.Targets(ctx, "j1", false, 0, 0)
		if err != nil || len(ts) != 3 || ts[0].Result != nil || ts[1].Error == "" || ts[1].Status != TargetFailed {
			t.Fatalf("summary targets %+v %v", ts, err)
		}
		one, err := s.Target(ctx, "j1", 2)
		if err != nil || string(one.Result) != `{"content":"x"}` || one.Status != TargetDone {
			t.Fatalf("target 2: %+v %v", one, err)
		}
		if _, err := s.Target(ctx, "j1", 3); !errors.Is(err, ErrJobNotFound) {
			t.Fatalf("target 3: %v", err)
		}
	})
}

func TestBatchFinalStatus(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		tests := []struct {
			name string
			errs []string
			want string
		}{
			{"all done", []string{"", ""}, JobDone},
			{"all failed", []string{"timeout", "upstream"}, JobFailed},
			{"mixed", []string{"", "timeout"}, JobPartial},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				s := open(t)
				newJob(t, s, "j", "a", "k", len(tt.errs), t0)
				for _, e := range tt.errs {
					out := Outcome{Error: e}
					if e == "" {
						out.Result = []byte("{}")
					}
					runTarget(t, s, "j", out, t0)
				}
				if got := jobOf(t, s, "j").Status; got != tt.want {
					t.Fatalf("status %s, want %s", got, tt.want)
				}
			})
		}
	})
}

// A target is counted once however often it is finished.
func TestBatchFinishExactlyOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "j", "a", "k", 2, t0)
		tg, _, _, _ := s.ClaimTarget(ctx, "j", claimAt(t0))
		var finished atomic.Int32
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if f, err := s.FinishTarget(ctx, "j", tg.Idx, "w1", Outcome{Result: []byte("{}")}, t0.Add(time.Minute), Budget{}); err == nil && f.Counted {
					finished.Add(1)
				}
			})
		}
		wg.Wait()
		j := jobOf(t, s, "j")
		if finished.Load() != 1 || j.TargetsDone != 1 || j.NBytes != 2 || j.Status != JobRunning {
			t.Fatalf("finished %d times; job %+v", finished.Load(), j)
		}
	})
}

// Workers claiming one job at once: exactly one gets a target, the others
// are told another holds the job (targets run one at a time).
func TestBatchClaimIsExclusive(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "j", "a", "k", 6, t0)
		var claimed, elsewhere atomic.Int32
		var wg sync.WaitGroup
		for w := range 12 {
			wg.Go(func() {
				_, state, _, err := s.ClaimTarget(ctx, "j", Claim{Owner: fmt.Sprintf("w%d", w), Now: t0, Until: t0.Add(time.Minute)})
				switch {
				case err != nil:
					t.Error(err)
				case state == Claimed:
					claimed.Add(1)
				case state == Elsewhere:
					elsewhere.Add(1)
				}
			})
		}
		wg.Wait()
		if claimed.Load() != 1 || elsewhere.Load() != 11 {
			t.Fatalf("claimed %d, elsewhere %d; want 1 and 11", claimed.Load(), elsewhere.Load())
		}
	})
}

// A claim that lapses (its instance died) is given back once, then the
// target fails as lost; a renewed claim does not lapse.
func TestBatchLapsedClaims(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "j", "a", "k", 2, t0)
		first, _, _, _ := s.ClaimTarget(ctx, "j", Claim{Owner: "dead-1", Now: t0, Until: t0.Add(time.Second)})
		if ok, err := s.RenewClaim(ctx, "j", first.Idx, "dead-1", t0.Add(10*time.Second)); err != nil || !ok {
			t.Fatalf("renew: %v %v", ok, err)
		}
		if _, state, _, _ := s.ClaimTarget(ctx, "j", Claim{Owner: "w2", Now: t0.Add(5 * time.Second), Until: t0.Add(time.Minute)}); state != Elsewhere {
			t.Fatalf("a held claim was taken: %v", state)
		}
		retry, state, _, _ := s.ClaimTarget(ctx, "j", Claim{Owner: "dead-2", Now: t0.Add(11 * time.Second), Until: t0.Add(12 * time.Second)})
		if state != Claimed || retry.Idx != 0 || retry.Attempts != 2 {
			t.Fatalf("after the lapse: %v %+v", state, retry)
		}
		// The first owner wakes up: its result is refused.
		if f, _ := s.FinishTarget(ctx, "j", 0, "dead-1", Outcome{Result: []byte("{}")}, t0, Budget{}); f.Counted {
			t.Fatal("a stale owner finished a target taken over")
		}
		next, state, _, _ := s.ClaimTarget(ctx, "j", Claim{Owner: "w3", Now: t0.Add(13 * time.Second), Until: t0.Add(time.Minute)})
		if state != Claimed || next.Idx != 1 {
			t.Fatalf("after the second lapse: %v %+v", state, next)
		}
		tg, _ := s.Target(ctx, "j", 0)
		if tg.Status != TargetFailed || tg.Error != LostError {
			t.Fatalf("target 0 after two lapses: %+v", tg)
		}
		if f, _ := s.FinishTarget(ctx, "j", 1, "w3", Outcome{Result: []byte("{}")}, t0, Budget{}); f.Settled != JobPartial {
			t.Fatalf("settled %q, want partial", f.Settled)
		}
	})
}

func TestBatchSubmitJobCaps(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		caps := Caps{PerCaller: 1, Total: 2}
		submit := func(id, caller, key string) (*BatchJob, error) {
			job := &BatchJob{ID: id, Caller: caller, CallerClass: "open", IdemKey: key, Status: JobQueued, CreatedAt: t0, Lease: t0}
			return s.SubmitJob(ctx, job, []BatchTarget{{URL: "http://a.example/", Options: []byte("{}")}}, t0.Add(-time.Hour), caps)
		}
		if reused, err := submit("a1", "alice", "k1"); err != nil || reused != nil {
			t.Fatalf("first: %v %v", reused, err)
		}
		if reused, err := submit("a1-again", "alice", "k1"); err != nil || reused == nil || reused.ID != "a1" {
			t.Fatalf("same targets: %v %v", reused, err)
		}
		if _, err := submit("a2", "alice", "k2"); !errors.Is(err, ErrCallerCap) {
			t.Fatalf("second live job: %v", err)
		}
		if _, err := submit("b1", "bob", "k3"); err != nil {
			t.Fatal(err)
		}
		if _, err := submit("c1", "carol", "k4"); !errors.Is(err, ErrTotalCap) {
			t.Fatalf("third live job: %v", err)
		}
	})
}

func TestBatchReusableJob(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "live", "alice", "k", 1, t0)
		find := func(caller, key string, since time.Time) string {
			j, ok, err := s.ReusableJob(ctx, caller, key, since)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				return ""
			}
			return j.ID
		}
		if got := find("alice", "k", t0.Add(-time.Hour)); got != "live" {
			t.Fatalf("queued job not reused: %q", got)
		}
		if got := find("bob", "k", t0.Add(-time.Hour)); got != "" {
			t.Fatal("another caller's job was reused")
		}
		if got := find("alice", "k", t0.Add(time.Second)); got != "" {
			t.Fatal("a job past its lease was reused")
		}
		runTarget(t, s, "live", Outcome{Result: []byte("{}")}, t0)
		if got := find("alice", "k", t0.Add(-time.Hour)); got != "live" {
			t.Fatal("a done job was not reused")
		}
		newJob(t, s, "cancelled", "alice", "k2", 1, t0)
		if err := s.CancelJob(ctx, "cancelled"); err != nil {
			t.Fatal(err)
		}
		newJob(t, s, "failed", "alice", "k3", 1, t0)
		if err := s.FailJob(ctx, "failed", "restart"); err != nil {
			t.Fatal(err)
		}
		if find("alice", "k2", t0.Add(-time.Hour)) != "" || find("alice", "k3", t0.Add(-time.Hour)) != "" {
			t.Fatal("a cancelled or failed job was reused")
		}
	})
}

func TestBatchLiveCounts(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "a1", "alice", "k1", 1, t0)
		newJob(t, s, "a2", "alice", "k2", 1, t0)
		newJob(t, s, "b1", "bob", "k3", 1, t0)
		runTarget(t, s, "a2", Outcome{Result: []byte("{}")}, t0)
		mine, all, err := s.LiveCounts(ctx, "alice")
		if err != nil || mine != 1 || all != 2 {
			t.Fatalf("live alice %d, all %d, err %v; want 1, 2", mine, all, err)
		}
	})
}

func TestBatchCancel(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "j", "a", "k", 3, t0)
		tg, _, _, _ := s.ClaimTarget(ctx, "j", claimAt(t0))
		if err := s.CancelJob(ctx, "j"); err != nil {
			t.Fatal(err)
		}
		// The target in flight finishes and is stored; nothing more is claimed.
		if f, err := s.FinishTarget(ctx, "j", tg.Idx, "w1", Outcome{Result: []byte("{}")}, t0, Budget{}); err != nil || !f.Counted {
			t.Fatalf("in-flight target after cancel: %+v %v", f, err)
		}
		if _, state, _, _ := s.ClaimTarget(ctx, "j", claimAt(t0)); state != Finished {
			t.Fatalf("a cancelled job answered %v", state)
		}
		ts, _ := s.Targets(ctx, "j", false, 0, 0)
		if j := jobOf(t, s, "j"); j.Status != JobCancelled || ts[0].Status != TargetDone || ts[1].Status != TargetPending {
			t.Fatalf("job %s, targets %+v", j.Status, ts)
		}
		if err := s.CancelJob(ctx, "j"); !errors.Is(err, ErrJobFinished) {
			t.Fatalf("second cancel: %v", err)
		}
		if err := s.CancelJob(ctx, "nope"); !errors.Is(err, ErrJobNotFound) {
			t.Fatalf("cancel of no job: %v", err)
		}
	})
}

// TestBatchRecoverAfterRestart: of the work a dead process left, the
// target it was running fails as restart and is counted; pending targets
// stay pending; a job whose last target that was ends partial; finished
// jobs keep their results.
func TestBatchRecoverAfterRestart(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "queued", "a", "k1", 2, t0)
		newJob(t, s, "midway", "b", "k2", 3, t0)
		newJob(t, s, "last", "d", "k4", 2, t0)
		newJob(t, s, "done", "c", "k3", 1, t0)
		for _, id := range []string{"midway", "last"} {
			runTarget(t, s, id, Outcome{Result: []byte("{}")}, t0)
			if _, _, _, err := s.ClaimTarget(ctx, id, claimAt(t0)); err != nil {
				t.Fatal(err)
			}
		}
		runTarget(t, s, "done", Outcome{Result: []byte(`{"ok":1}`)}, t0)
		rec, err := s.RecoverAfterRestart(ctx, "restart")
		if err != nil {
			t.Fatal(err)
		}
		if rec.Live != 2 || !slices.Equal(rec.Failed, []string{"last", "midway"}) || !maps.Equal(rec.Settled, map[string]string{"last": JobPartial}) {
			t.Fatalf("recovered %+v; want 2 live, last and midway failed, last partial", rec)
		}
		wantTargets := map[string][]string{
			"queued": {TargetPending, TargetPending},
			"midway": {TargetDone, TargetFailed, TargetPending},
			"last":   {TargetDone, TargetFailed},
			"done":   {TargetDone},
		}
		for id, want := range wantTargets {
			ts, _ := s.Targets(ctx, id, false, 0, 0)
			var got []string
			for _, tg := range ts {
				got = append(got, tg.Status)
				if tg.Status == TargetFailed && tg.Error != "restart" {
					t.Errorf("%s/%d failed with %q", id, tg.Idx, tg.Error)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: targets %v, want %v", id, got, want)
			}
		}
		for id, want := range map[string]string{"queued": JobQueued, "midway": JobRunning, "last": JobPartial, "done": JobDone} {
			if j := jobOf(t, s, id); j.Status != want {
				t.Errorf("%s: %s, want %s", id, j.Status, want)
			}
		}
		if j := jobOf(t, s, "midway"); j.TargetsDone != 2 {
			t.Errorf("midway counts %d targets finished, want 2", j.TargetsDone)
		}
		// The pending targets run: the next claim of midway is its third.
		if tg, state, _, err := s.ClaimTarget(ctx, "midway", claimAt(t0)); err != nil || state != Claimed || tg.Idx != 2 {
			t.Fatalf("claim after the restart: %+v %v %v", tg, state, err)
		}
		if one, _ := s.Target(ctx, "done", 0); string(one.Result) != `{"ok":1}` {
			t.Fatal("a done job's result was lost")
		}
	})
}

func TestBatchReadsNeverWriteAndTouchSlides(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "j", "a", "k", 1, t0)
		s.Job(ctx, "j")
		s.Targets(ctx, "j", true, 0, 0)
		if j := jobOf(t, s, "j"); !j.Lease.Equal(t0) {
			t.Fatalf("a read moved the lease to %v", j.Lease)
		}
		if err := s.Touch(ctx, "j", t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		s.Touch(ctx, "j", t0.Add(time.Minute)) // never backwards
		if j := jobOf(t, s, "j"); !j.Lease.Equal(t0.Add(time.Hour)) {
			t.Fatalf("lease %v after touch", j.Lease)
		}
	})
}

func TestBatchSweep(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		big := make([]byte, 1000)
		newJob(t, s, "old", "a", "k1", 1, t0)
		runTarget(t, s, "old", Outcome{Result: big}, t0)
		newJob(t, s, "mid", "a", "k2", 1, t0)
		runTarget(t, s, "mid", Outcome{Result: big}, t0.Add(time.Hour))
		newJob(t, s, "new", "a", "k3", 1, t0)
		runTarget(t, s, "new", Outcome{Result: big}, t0.Add(2*time.Hour))
		newJob(t, s, "live", "b", "k4", 2, t0) // lease t0, but live: only the TTL removes it
		runTarget(t, s, "live", Outcome{Result: big}, t0)

		// Over a 2,500-byte budget the oldest finished job goes first; the
		// live one stays though its lease is as old.
		n, err := s.SweepJobs(ctx, t0.Add(-time.Hour), t0.Add(3*time.Hour), 2500)
		if err != nil || n != 2 {
			t.Fatalf("swept %d, err %v; want 2", n, err)
		}
		for id, exists := range map[string]bool{"old": false, "mid": false, "new": true, "live": true} {
			if _, err := s.Job(ctx, id); (err == nil) != exists {
				t.Fatalf("%s exists=%v after sweep", id, err == nil)
			}
		}
		if b, _ := s.BatchBytes(ctx); b != 2000 {
			t.Fatalf("bytes %d after eviction", b)
		}
		// Past the TTL everything goes, live or not, targets too.
		if n, err := s.SweepJobs(ctx, t0.Add(3*time.Hour), t0, 1<<20); err != nil || n != 2 {
			t.Fatalf("TTL sweep %d %v", n, err)
		}
		if ts, _ := s.Targets(ctx, "live", false, 0, 0); len(ts) != 0 {
			t.Fatal("targets outlived their job")
		}
	})
}
