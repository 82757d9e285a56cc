package store

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

// memoOf reads key from the table and returns the snapshot's memo.
func memoOf(t *testing.T, c *CacheTable, key string) (*Memo, bool) {
	t.Helper()
	_, _, memo, ok, err := c.GetMemo(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return memo, ok
}

// TestMemoLivesWithItsSnapshot: what is kept beside a snapshot in memory
// is served while that snapshot is, and goes with it: when the snapshot
// expires, is replaced, is evicted, or the cache is cleared (from this or
// another process).
func TestMemoLivesWithItsSnapshot(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	setup := func(t *testing.T) (*Store, *CacheTable, *time.Time) {
		s := openTest(t)
		c := s.CacheTable(1 << 20)
		clock := now
		c.now = func() time.Time { return clock }
		if err := c.Put(ctx, "k", []byte("snapshot"), now.Add(time.Hour), false); err != nil {
			t.Fatal(err)
		}
		memo, ok := memoOf(t, c, "k")
		if !ok || memo == nil {
			t.Fatalf("no memo for a snapshot in memory: %v %v", memo, ok)
		}
		memo.Store("derived", "value", 5)
		if v, ok := memo.Load("derived"); !ok || v != "value" {
			t.Fatalf("memo lost its value at once: %v %v", v, ok)
		}
		if again, _ := memoOf(t, c, "k"); again == nil {
			t.Fatal("no memo on the second read")
		} else if v, ok := again.Load("derived"); !ok || v != "value" {
			t.Fatalf("the second read's memo lacks the value: %v %v", v, ok)
		}
		return s, c, &clock
	}
	tests := []struct {
		name   string
		change func(t *testing.T, s *Store, c *CacheTable, clock *time.Time)
		hit    bool // the key is still served afterwards
	}{
		{"replaced", func(t *testing.T, _ *Store, c *CacheTable, _ *time.Time) {
			if err := c.Put(ctx, "k", []byte("newer"), now.Add(time.Hour), false); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"expired", func(_ *testing.T, _ *Store, _ *CacheTable, clock *time.Time) {
			*clock = now.Add(time.Hour)
		}, false},
		{"evicted", func(t *testing.T, _ *Store, c *CacheTable, _ *time.Time) {
			big := bytes.Repeat([]byte{'x'}, int(c.hot.max)-len("snapshot"))
			if err := c.Put(ctx, "other", big, now.Add(time.Hour), false); err != nil {
				t.Fatal(err)
			}
		}, true}, // from the database, with an empty memo
		{"cleared by another process", func(t *testing.T, s *Store, _ *CacheTable, clock *time.Time) {
			other := s.CacheTable(1 << 20) // another process's view of the same database
			if _, err := other.store.CacheClear(ctx, -1); err != nil {
				t.Fatal(err)
			}
			*clock = clock.Add(generationEvery)
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c, clock := setup(t)
			old, _ := memoOf(t, c, "k")
			tt.change(t, s, c, clock)
			memo, ok := memoOf(t, c, "k")
			if ok != tt.hit {
				t.Fatalf("served %v, want %v", ok, tt.hit)
			}
			if _, found := memo.Load("derived"); found {
				t.Error("the memo outlived its snapshot")
			}
			old.Store("late", "value", 1) // a reader holding the old memo adds nothing that counts
			if _, found := old.Load("late"); found {
				t.Error("a memo whose snapshot left memory took a value")
			}
		})
	}
}

// TestMemoCountsAgainstTheBound: what a memo holds is part of the memory
// layer's bytes, so memos never grow memory past its bound, and a memo
// keeps its memoMax most recent values.
func TestMemoCountsAgainstTheBound(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h := newHot(100)
	h.put("a", bytes.Repeat([]byte{'a'}, 30), now, now.Add(time.Hour))
	memoB := h.put("b", bytes.Repeat([]byte{'b'}, 30), now, now.Add(time.Hour))
	memoB.Store("x", 1, 30)
	if h.size != 90 {
		t.Fatalf("size %d, want 90", h.size)
	}
	memoB.Store("y", 2, 20) // 110 > 100: a, the least recently used, goes
	if _, _, ok := h.get("a", now); ok {
		t.Error("a memo grew memory past its bound")
	}
	if h.size != 80 {
		t.Errorf("size %d, want 80", h.size)
	}
	memoB.Store("too large", 3, 101)
	if _, ok := memoB.Load("too large"); ok {
		t.Error("a value over the whole bound was kept")
	}
	h.drop("b")
	if h.size != 0 {
		t.Errorf("size %d after the last entry left, want 0", h.size)
	}

	h = newHot(1 << 20)
	memo := h.put("k", []byte("k"), now, now.Add(time.Hour))
	for i := range memoMax + 2 {
		memo.Store(fmt.Sprint(i), i, 1)
	}
	for i := range memoMax + 2 {
		_, ok := memo.Load(fmt.Sprint(i))
		if want := i >= 2; ok != want {
			t.Errorf("value %d kept %v, want %v", i, ok, want)
		}
	}
	if h.size != int64(1+memoMax) {
		t.Errorf("size %d, want %d", h.size, 1+memoMax)
	}
}

// TestMemoConcurrent: readers and writers of one memo and the entries
// around it, under the race detector.
func TestMemoConcurrent(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h := newHot(1 << 10)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 200 {
				key := fmt.Sprint(i % 5)
				if w == 0 {
					h.put(key, bytes.Repeat([]byte{'s'}, 100), now, now.Add(time.Hour))
					continue
				}
				if _, _, memo, ok := h.getMemo(key, now); ok {
					if _, found := memo.Load("v"); !found {
						memo.Store("v", i, 50)
					}
				}
			}
		})
	}
	wg.Wait()
	var sum int64
	for el := h.order.Front(); el != nil; el = el.Next() {
		sum += el.Value.(*hotEntry).size()
	}
	if sum != h.size || h.size > h.max {
		t.Errorf("size %d, entries hold %d, bound %d", h.size, sum, h.max)
	}
}

// TestCacheMemoryBudget: the memory layer holds what the configuration
// gives it, by default a quarter of the cache's budget, at most 64 MiB.
func TestCacheMemoryBudget(t *testing.T) {
	s := openTest(t)
	if got := s.CacheTableIn(1<<20, 100, 0).hot.max; got != 100 {
		t.Errorf("memory 100: the layer holds %d", got)
	}
	for budget, want := range map[int64]int64{1 << 20: 256 << 10, 1 << 40: 64 << 20} {
		if got := s.CacheTable(budget).hot.max; got != want {
			t.Errorf("budget %d: the layer holds %d, want %d", budget, got, want)
		}
	}
}
