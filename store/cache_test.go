package store

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/pgtest"
)

// openTest opens a fresh SQLite store.
func openTest(t *testing.T) *Store {
	t.Helper()
	s, err := OpenSQLite(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestCacheGetPut(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		c := s.CacheTable(1 << 20)
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		c.now = func() time.Time { return now }
		if _, _, ok, err := c.Get(ctx, "k"); ok || err != nil {
			t.Fatalf("empty cache: ok=%v err=%v", ok, err)
		}
		if err := c.Put(ctx, "k", []byte("one"), now.Add(time.Hour), false); err != nil {
			t.Fatal(err)
		}
		snap, at, ok, err := c.Get(ctx, "k")
		if !ok || err != nil || string(snap) != "one" || !at.Equal(now) {
			t.Fatalf("get: %q %v %v %v", snap, at, ok, err)
		}
		if err := c.Put(ctx, "k", []byte("two"), now.Add(time.Hour), false); err != nil {
			t.Fatal(err)
		}
		if snap, _, _, _ := c.Get(ctx, "k"); string(snap) != "two" {
			t.Fatalf("replaced entry reads %q", snap)
		}
		now = now.Add(2 * time.Hour)
		if _, _, ok, _ := c.Get(ctx, "k"); ok {
			t.Fatal("an expired entry was served")
		}
	})
}

func TestCacheEvictsOldestFirst(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		c := s.CacheTable(250)
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		c.now = func() time.Time { return now }
		for _, k := range []string{"a", "b", "c"} {
			if err := c.Put(ctx, k, bytes.Repeat([]byte("x"), 100), now.Add(time.Hour), false); err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Second)
		}
		if _, _, ok, _ := c.Get(ctx, "a"); ok {
			t.Error("the oldest entry survived eviction")
		}
		for _, k := range []string{"b", "c"} {
			if _, _, ok, _ := c.Get(ctx, k); !ok {
				t.Errorf("entry %s was evicted", k)
			}
		}
		if total, _, _ := s.CacheStats(ctx); total != 200 {
			t.Errorf("cache holds %d bytes, want 200", total)
		}
		if err := c.Put(ctx, "huge", bytes.Repeat([]byte("x"), 300), now.Add(time.Hour), false); err != nil {
			t.Fatal(err)
		}
		if total, _, _ := s.CacheStats(ctx); total > 250 {
			t.Errorf("an entry over the whole budget left %d bytes", total)
		}
		if _, _, ok, _ := c.Get(ctx, "b"); !ok {
			t.Error("an entry over the whole budget evicted the others")
		}
	})
}

func TestReopenKeepsEntries(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenSQLite(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CacheTable(1<<20).Put(ctx, "k", []byte("kept"), time.Now().Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = OpenSQLite(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if snap, _, ok, _ := s.CacheTable(1<<20).Get(ctx, "k"); !ok || string(snap) != "kept" {
		t.Fatalf("after reopening: %q %v", snap, ok)
	}
}

// counted is what the cache tables really hold, summed the slow way.
func counted(t *testing.T, s *Store) (bytes, entries int64) {
	t.Helper()
	var row struct{ Bytes, Entries int64 }
	if err := s.db.Model(&CacheEntry{}).Select("COALESCE(SUM(bytes), 0) AS bytes, COUNT(*) AS entries").Scan(&row).Error; err != nil {
		t.Fatal(err)
	}
	var blobs int64
	if err := s.db.Model(&CacheBlob{}).Count(&blobs).Error; err != nil {
		t.Fatal(err)
	}
	if blobs != row.Entries {
		t.Fatalf("%d snapshots for %d entries", blobs, row.Entries)
	}
	return row.Bytes, row.Entries
}

// checkTotals fails unless the running totals match the tables and the
// budget holds.
func checkTotals(t *testing.T, s *Store, budget int64) {
	t.Helper()
	bytes, entries, err := s.CacheStats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if wantBytes, wantEntries := counted(t, s); bytes != wantBytes || entries != wantEntries {
		t.Fatalf("running totals %d bytes in %d entries; the tables hold %d in %d", bytes, entries, wantBytes, wantEntries)
	}
	if bytes > budget {
		t.Fatalf("%d bytes cached over a budget of %d", bytes, budget)
	}
}

// TestCacheTotalsKept: puts, replacements of a key by a larger or smaller
// snapshot, expiry and eviction all keep the running total equal to what
// the tables hold, and within the budget.
func TestCacheTotalsKept(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		const budget = 5000
		c := s.CacheTable(budget)
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		c.now = func() time.Time { return now }
		for i := range 300 {
			key := fmt.Sprintf("k%d", i%40) // keys come back: replacements
			ttl := time.Hour
			if i%7 == 0 {
				ttl = time.Second // some expire before the next puts
			}
			size := 10 + (i*37)%400
			if err := c.Put(ctx, key, bytes.Repeat([]byte{'x'}, size), now.Add(ttl), false); err != nil {
				t.Fatal(err)
			}
			checkTotals(t, s, budget)
			if _, _, ok, _ := c.Get(ctx, key); !ok {
				t.Fatalf("put %d: the entry just stored is gone", i)
			}
			now = now.Add(time.Second)
		}
	})
}

// TestCacheExpiredSweptInBatches: expired entries are dropped by later puts
// a bounded batch at a time, until none is left.
func TestCacheExpiredSweptInBatches(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		c := s.CacheTable(1 << 30)
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		c.now = func() time.Time { return now }
		const stale = 3*evictBatch*evictRounds + 5
		for i := range stale {
			if err := c.Put(ctx, fmt.Sprintf("old%d", i), []byte("x"), now.Add(time.Minute), false); err != nil {
				t.Fatal(err)
			}
		}
		now = now.Add(time.Hour)
		if err := c.Put(ctx, "new0", []byte("y"), now.Add(time.Hour), false); err != nil {
			t.Fatal(err)
		}
		if _, entries, _ := s.CacheStats(ctx); entries != stale+1-evictBatch*evictRounds {
			t.Fatalf("one put left %d entries of %d stale + 1; want one bounded sweep of %d", entries, stale, evictBatch*evictRounds)
		}
		for i := 1; i <= 3; i++ {
			if err := c.Put(ctx, fmt.Sprintf("new%d", i), []byte("y"), now.Add(time.Hour), false); err != nil {
				t.Fatal(err)
			}
		}
		if _, entries, _ := s.CacheStats(ctx); entries != 4 {
			t.Fatalf("%d entries after the sweeps, want the 4 fresh ones", entries)
		}
		checkTotals(t, s, 1<<30)
	})
}

// TestCacheBudgetLowered: a cache over a budget lowered since it was
// filled drains over the following puts, oldest first, a bounded batch
// each.
func TestCacheBudgetLowered(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		big := s.CacheTable(1 << 30)
		big.now = func() time.Time { return now }
		const n = 400
		for i := range n {
			if err := big.Put(ctx, fmt.Sprintf("k%03d", i), bytes.Repeat([]byte{'x'}, 100), now.Add(time.Hour), false); err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Millisecond)
		}
		small := s.CacheTable(1000)
		small.now = big.now
		i := 0
		for ; ; i++ {
			if err := small.Put(ctx, fmt.Sprintf("new%d", i), bytes.Repeat([]byte{'y'}, 100), now.Add(time.Hour), false); err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Millisecond)
			total, _, _ := s.CacheStats(ctx)
			if total <= 1000 {
				break
			}
			if i > n/(evictBatch*evictRounds)+1 {
				t.Fatalf("still %d bytes after %d puts", total, i+1)
			}
		}
		checkTotals(t, s, 1000)
		// What is left is the newest ten: the last old ones and every new one.
		for _, k := range []string{fmt.Sprintf("k%03d", n-10+i+1), fmt.Sprintf("new%d", i), "new0"} {
			if _, _, ok, _ := small.Get(ctx, k); !ok {
				t.Errorf("%s was evicted before older entries", k)
			}
		}
		if _, _, ok, _ := small.Get(ctx, fmt.Sprintf("k%03d", n-10+i)); ok {
			t.Error("an old entry outlived the newer ones")
		}
	})
}

// TestCacheSharedByInstances: several instances putting into one
// PostgreSQL database at once keep one correct total within the budget.
func TestCacheSharedByInstances(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.DB(t)
	const budget = 20_000
	var stores []*Store
	for range 3 {
		s, err := OpenPostgres(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		stores = append(stores, s)
	}
	var wg sync.WaitGroup
	for i, s := range stores {
		c := s.CacheTable(budget)
		wg.Go(func() {
			for j := range 100 {
				key := fmt.Sprintf("k%d", (i*7+j)%60) // instances replace each other's keys
				if err := c.Put(ctx, key, bytes.Repeat([]byte{'x'}, 100+j*5), time.Now().Add(time.Hour), false); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	checkTotals(t, stores[0], budget)
}

// TestOldCacheLayoutDropped: a database whose cache table keeps snapshots
// beside the bookkeeping (the earlier layout) opens with an empty cache.
func TestOldCacheLayoutDropped(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenSQLite(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TABLE cache_entries",
		"CREATE TABLE cache_entries (cache_key TEXT PRIMARY KEY, snapshot BLOB NOT NULL, bytes INTEGER NOT NULL, created_at DATETIME NOT NULL, expires_at DATETIME NOT NULL)",
		"INSERT INTO cache_entries VALUES ('k', x'00', 1, '2026-01-01', '2099-01-01')"} {
		if err := s.db.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s, err = OpenSQLite(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := s.CacheTable(1 << 20)
	if err := c.Put(ctx, "k2", []byte("new"), time.Now().Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, _ := c.Get(ctx, "k"); ok {
		t.Error("an entry of the old layout survived")
	}
	checkTotals(t, s, 1<<20)
}

// A replaced entry is as old as its new snapshot, read from the database
// as from memory: its taken time, by which hits report cached_at and max
// age and eviction count, is the second put's.
func TestReplacedEntryTakesTheNewTime(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		first := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		second := first.Add(10 * time.Minute)
		for _, put := range []struct {
			at   time.Time
			snap string
		}{{first, "one"}, {second, "two"}} {
			if _, err := s.CachePut(ctx, "k", "", 0, false, []byte(put.snap), put.at, put.at.Add(time.Hour), put.at.Add(time.Hour), 1<<20); err != nil {
				t.Fatal(err)
			}
		}
		snap, at, ok, err := s.CacheGet(ctx, "k", second)
		if !ok || err != nil || string(snap) != "two" || !at.Equal(second) {
			t.Fatalf("the replaced entry reads %q taken at %v (ok %v, %v), want %q at %v", snap, at, ok, err, "two", second)
		}
	})
}

// TestCacheKeptPastFreshness: an entry put to be kept past its expiry is
// no hit once expired, is still there for GetStale while kept, survives
// the sweeps of later puts, and goes once its keep time has passed.
func TestCacheKeptPastFreshness(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		c := s.CacheTable(1 << 20)
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		c.now = func() time.Time { return now }
		if err := c.PutKept(ctx, "kept", []byte("validated"), now.Add(time.Minute), now.Add(time.Hour), false); err != nil {
			t.Fatal(err)
		}
		if err := c.Put(ctx, "plain", []byte("x"), now.Add(time.Minute), false); err != nil {
			t.Fatal(err)
		}
		now = now.Add(10 * time.Minute)
		if err := c.Put(ctx, "sweep1", []byte("y"), now.Add(time.Hour), false); err != nil {
			t.Fatal(err)
		}
		if _, _, ok, _ := s.CacheGet(ctx, "kept", now); ok {
			t.Error("an expired entry is a hit")
		}
		if snap, _, ok, err := c.GetStale(ctx, "kept"); err != nil || !ok || string(snap) != "validated" {
			t.Errorf("the kept entry: %q %v %v", snap, ok, err)
		}
		if _, _, ok, _ := c.GetStale(ctx, "plain"); ok {
			t.Error("an entry put without a keep time outlived its expiry's sweep")
		}
		now = now.Add(time.Hour)
		if err := c.Put(ctx, "sweep2", []byte("y"), now.Add(time.Hour), false); err != nil {
			t.Fatal(err)
		}
		if _, _, ok, _ := c.GetStale(ctx, "kept"); ok {
			t.Error("the kept entry outlived its keep time")
		}
		checkTotals(t, s, 1<<20)
	})
}

// TestCacheKeepUntilMigrated: a database from before entries had a keep
// time gets the column, each entry kept until it expires, and its entries
// stay hits.
func TestCacheKeepUntilMigrated(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenSQLite(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CacheTable(1<<20).Put(ctx, "k", []byte("old"), time.Now().Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP INDEX idx_cache_entries_keep_until", "ALTER TABLE cache_entries DROP COLUMN keep_until"} {
		if err := s.db.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	_ = s.Close()
	s, err = OpenSQLite(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var e CacheEntry
	if err := s.db.Take(&e, "cache_key = ?", "k").Error; err != nil || !e.KeepUntil.Equal(e.ExpiresAt) {
		t.Fatalf("migrated entry: keep until %v, expires %v, %v", e.KeepUntil, e.ExpiresAt, err)
	}
	if _, _, ok, _ := s.CacheGet(ctx, "k", time.Now()); !ok {
		t.Error("the migrated entry is no longer a hit")
	}
}
