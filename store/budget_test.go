package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// finishWith claims id's next target and finishes it with a result of n
// bytes under b.
func finishWith(t *testing.T, s *Store, id string, n int, b Budget) Finish {
	t.Helper()
	ctx := context.Background()
	tg, state, _, err := s.ClaimTarget(ctx, id, claimAt(t0))
	if err != nil || state != Claimed {
		t.Fatalf("claim on %s: state=%v err=%v", id, state, err)
	}
	f, err := s.FinishTarget(ctx, id, tg.Idx, "w1", Outcome{Result: make([]byte, n)}, t0, b)
	if err != nil || !f.Counted {
		t.Fatalf("finish %s/%d: %+v %v", id, tg.Idx, f, err)
	}
	return f
}

// TestBatchBudgetBeforeStore: a result is stored only if it fits the
// per-result cap, the caller's share and the total; one that does not
// fails its target too_large, and nothing stored is evicted for it.
func TestBatchBudgetBeforeStore(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		b := Budget{Result: 400, Caller: 1000, Total: 1500}
		newJob(t, s, "bob1", "bob", "k0", 2, t0)
		finishWith(t, s, "bob1", 300, b)
		finishWith(t, s, "bob1", 300, b)
		newJob(t, s, "eve1", "eve", "k1", 6, t0)
		// 401 passes the cap; two of 400 fit; 300 passes eve's share
		// (1,100 > 1,000); 100 fits; 1 passes the total (1,501 > 1,500).
		for i, n := range []int{401, 400, 400, 300, 100, 1} {
			if f := finishWith(t, s, "eve1", n, b); f.TooLarge != (i == 0 || i == 3 || i == 5) {
				t.Fatalf("target %d (%d bytes): %+v", i, n, f)
			}
		}
		ts, err := s.Targets(ctx, "eve1", true, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		var stored []string
		for _, tg := range ts {
			stored = append(stored, fmt.Sprintf("%s/%d/%d", tg.Status, len(tg.Result), tg.ResultBytes))
		}
		if got := strings.Join(stored, " "); got != "failed/0/0 done/400/400 done/400/400 failed/0/0 done/100/100 failed/0/0" {
			t.Fatalf("stored %s", got)
		}
		for i, want := range map[int]string{
			0: "too_large: the result is 401 bytes; a batch result may be at most 400 bytes",
			3: "too_large: the result (300 bytes) does not fit the caller's share of the batch store (1000 bytes)",
			5: "too_large: the result (1 bytes) does not fit the batch store (1.5 KiB in all)",
		} {
			if !strings.HasPrefix(ts[i].Error, want) {
				t.Errorf("target %d: error %q, want %q…", i, ts[i].Error, want)
			}
		}
		if j := jobOf(t, s, "eve1"); j.Status != JobPartial || j.NBytes != 900 {
			t.Fatalf("job %+v", j)
		}
		// Bob's results are untouched; the totals match what is stored.
		if bb, _ := s.CallerBytes(ctx, "bob"); bb != 600 {
			t.Fatalf("bob's bytes %d", bb)
		}
		if eb, _ := s.CallerBytes(ctx, "eve"); eb != 900 {
			t.Fatalf("eve's bytes %d", eb)
		}
		if all, _ := s.BatchBytes(ctx); all != 1500 {
			t.Fatalf("total %d", all)
		}
	})
}

// TestBatchBudgetStaleFinishCountsNothing: a finish by a worker whose
// claim was taken over stores nothing and counts no bytes.
func TestBatchBudgetStaleFinishCountsNothing(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "j", "bob", "k", 1, t0)
		finishWith(t, s, "j", 10, Budget{})
		f, err := s.FinishTarget(ctx, "j", 0, "w1", Outcome{Result: make([]byte, 99)}, t0, Budget{})
		if err != nil || f.Counted {
			t.Fatalf("second finish %+v %v", f, err)
		}
		if all, _ := s.BatchBytes(ctx); all != 10 {
			t.Fatalf("total %d after a stale finish", all)
		}
	})
}

// TestBatchUsageRebuiltOnOpen: the running totals are recounted from the
// jobs when the store opens, and sweeps keep them.
func TestBatchUsageRebuiltOnOpen(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	s, err := OpenSQLite(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	newJob(t, s, "a", "bob", "k1", 1, t0)
	finishWith(t, s, "a", 70, Budget{})
	newJob(t, s, "b", "eve", "k2", 1, t0.Add(time.Hour))
	finishWith(t, s, "b", 30, Budget{})
	s.db.Exec("UPDATE batch_usages SET nbytes = 12345")    // drifted
	s.db.Exec("UPDATE batch_targets SET result_bytes = 0") // stored before sizes were
	s.Close()
	if s, err = OpenSQLite(ctx, dir); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	all, _ := s.BatchBytes(ctx)
	bob, _ := s.CallerBytes(ctx, "bob")
	if all != 100 || bob != 70 {
		t.Fatalf("after reopen: all %d, bob %d", all, bob)
	}
	if tg, _ := s.Target(ctx, "a", 0); tg.ResultBytes != 70 {
		t.Fatalf("result size %d after reopen", tg.ResultBytes)
	}
	if n, err := s.SweepJobs(ctx, t0.Add(time.Minute), t0, 1<<20); err != nil || n != 1 {
		t.Fatalf("sweep %d %v", n, err)
	}
	all, _ = s.BatchBytes(ctx)
	bob, _ = s.CallerBytes(ctx, "bob")
	if all != 30 || bob != 0 {
		t.Fatalf("after sweep: all %d, bob %d", all, bob)
	}
}

// TestBatchEvictionKeepsTheGrace: over budget (a lowered max_bytes), the
// sweep evicts only finished jobs whose lease is past the grace.
func TestBatchEvictionKeepsTheGrace(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		for i, id := range []string{"old", "recent"} {
			newJob(t, s, id, id, id, 1, t0)
			tg, _, _, _ := s.ClaimTarget(ctx, id, claimAt(t0))
			at := t0.Add(time.Duration(i) * 2 * time.Hour)
			if _, err := s.FinishTarget(ctx, id, tg.Idx, "w1", Outcome{Result: make([]byte, 100)}, at, Budget{}); err != nil {
				t.Fatal(err)
			}
		}
		// At t0+2h30 with a one-hour grace, "recent" (finished at t0+2h) is
		// kept though the budget is still passed.
		n, err := s.SweepJobs(ctx, t0.Add(-time.Hour), t0.Add(90*time.Minute), 10)
		if err != nil || n != 1 {
			t.Fatalf("evicted %d %v", n, err)
		}
		if _, err := s.Job(ctx, "recent"); err != nil {
			t.Fatalf("a job within its grace was evicted: %v", err)
		}
	})
}

// TestBatchResultsPage: pages hold at most MaxBytes of results (the first
// target whatever its size), count skip and limit over the selected
// targets, and say whether more remain.
func TestBatchResultsPage(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		newJob(t, s, "j", "bob", "k", 6, t0)
		for i, n := range []int{50, 50, 0, 300, 50, 50} {
			tg, _, _, _ := s.ClaimTarget(ctx, "j", claimAt(t0))
			out := Outcome{Result: make([]byte, n)}
			if n == 0 {
				out = Outcome{Error: "blocked: no"}
			}
			if f, err := s.FinishTarget(ctx, "j", tg.Idx, "w1", out, t0, Budget{}); err != nil || !f.Counted || tg.Idx != i {
				t.Fatal(f, err)
			}
		}
		tests := []struct {
			q    PageQuery
			want string
			more bool
		}{
			{PageQuery{MaxBytes: 120}, "0:50 1:50 2:0", true},
			{PageQuery{From: 3, MaxBytes: 120}, "3:300", true},
			{PageQuery{From: 4, MaxBytes: 120}, "4:50 5:50", false},
			{PageQuery{Status: TargetDone, MaxBytes: 120}, "0:50 1:50", true},
			{PageQuery{Status: TargetDone, Skip: 2, MaxBytes: 1000}, "3:300 4:50 5:50", false},
			{PageQuery{Status: TargetDone, Skip: 1, Limit: 2, MaxBytes: 1000}, "1:50 3:300", true},
			{PageQuery{Status: TargetDone, Skip: 5}, "", false},
		}
		for _, tt := range tests {
			page, more, err := s.ResultsPage(ctx, "j", tt.q)
			var got []string
			for _, tg := range page {
				got = append(got, fmt.Sprintf("%d:%d", tg.Idx, len(tg.Result)))
			}
			if err != nil || strings.Join(got, " ") != tt.want || more != tt.more {
				t.Errorf("%+v: %v more=%v %v; want %s more=%v", tt.q, got, more, err, tt.want, tt.more)
			}
		}
	})
}
