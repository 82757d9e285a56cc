package store

import (
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/pgtest"
)

// benchSnapshot is the size of the snapshots the cache benchmark stores:
// an extracted article's snapshot, as the cache stage writes it.
const benchSnapshot = 16 << 10

// BenchmarkCacheMiss is what a miss costs the cache (a lookup that finds
// nothing, then the put of the new snapshot) with 0, 1,000 and 10,000
// entries already cached, the budget raised to hold them all, on SQLite
// and on PostgreSQL. It prints the median of each and the 10,000 figure
// over the 0 figure: a cost that does not grow with the cache stays near 1.
func BenchmarkCacheMiss(b *testing.B) {
	benchCacheMiss(b, "", func(int) int64 { return 1 << 40 })
}

// BenchmarkCacheMissEvicting is BenchmarkCacheMiss with the cache full:
// the budget is what is cached (one snapshot when nothing is), so every
// put evicts the oldest entry.
func BenchmarkCacheMissEvicting(b *testing.B) {
	benchCacheMiss(b, ", evicting", func(fill int) int64 { return int64(max(fill, 1) * benchSnapshot) })
}

// benchCacheMiss times a miss at each fill level under budget(fill).
func benchCacheMiss(b *testing.B, what string, budget func(fill int) int64) {
	ctx := context.Background()
	dbs := []struct {
		name string
		open func(b *testing.B) *Store
	}{
		{"sqlite", func(b *testing.B) *Store {
			s, err := OpenSQLite(ctx, b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = s.Close() })
			return s
		}},
		{"postgres", func(b *testing.B) *Store {
			s, err := OpenPostgres(ctx, pgtest.DB(b))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = s.Close() })
			return s
		}},
	}
	snap := make([]byte, benchSnapshot)
	_, _ = rand.Read(snap)
	fills := []int{0, 1_000, 10_000}
	for _, db := range dbs {
		caches := make([]*CacheTable, len(fills))
		for i, n := range fills {
			s := db.open(b)
			fillCache(b, s, n, snap)
			caches[i] = s.CacheTable(budget(n))
		}
		b.Run(db.name, func(b *testing.B) {
			// Each round misses once at every fill level, so that the
			// levels share whatever else the machine is doing.
			took := make([][]time.Duration, len(fills))
			round := 0
			for b.Loop() {
				round++
				for i, c := range caches {
					key := fmt.Sprintf("miss-%d-%d", b.N, round)
					start := time.Now()
					if _, _, ok, err := c.Get(ctx, key); ok || err != nil {
						b.Fatalf("lookup of a new key: ok=%v err=%v", ok, err)
					}
					if err := c.Put(ctx, key, snap, time.Now().Add(time.Hour), false); err != nil {
						b.Fatal(err)
					}
					took[i] = append(took[i], time.Since(start))
				}
			}
			// Medians: on a shared machine a mean follows the
			// neighbours' load spikes more than the cache.
			med := make([]time.Duration, len(fills))
			for i := range fills {
				slices.Sort(took[i])
				med[i] = took[i][len(took[i])/2]
				b.ReportMetric(float64(med[i].Microseconds()), fmt.Sprintf("µs@%d", fills[i]))
			}
			if round > 1 {
				fmt.Printf("cache miss on %s%s (median of %d): %v at 0 entries, %v at 1,000, %v at 10,000; 10,000/0 = %.2f\n",
					db.name, what, round, med[0].Round(time.Microsecond), med[1].Round(time.Microsecond), med[2].Round(time.Microsecond),
					float64(med[2])/float64(med[0]))
			}
		})
	}
}

// fillCache stores n entries of snap, created over the past hour, in
// bulk, and sets the running totals to match.
func fillCache(b *testing.B, s *Store, n int, snap []byte) {
	b.Helper()
	now := time.Now()
	entries := make([]CacheEntry, n)
	blobs := make([]CacheBlob, n)
	for i := range n {
		key := fmt.Sprintf("fill-%06d", i)
		entries[i] = CacheEntry{Key: key, Bytes: int64(len(snap)), CreatedAt: now.Add(-time.Hour + time.Duration(i)*time.Millisecond),
			ExpiresAt: now.Add(time.Duration(24+i%24) * time.Hour)}
		blobs[i] = CacheBlob{Key: key, Snapshot: snap}
	}
	if err := s.db.CreateInBatches(entries, 500).Error; err != nil {
		b.Fatal(err)
	}
	if err := s.db.CreateInBatches(blobs, 50).Error; err != nil {
		b.Fatal(err)
	}
	if err := s.db.Model(&CacheStats{}).Where("id = ?", statsID).
		Updates(map[string]any{"bytes": int64(n * len(snap)), "entries": n}).Error; err != nil {
		b.Fatal(err)
	}
	// Settle the bulk load as a long-running cache would be settled:
	// SQLite's log written back, PostgreSQL's planner statistics taken.
	settle := "PRAGMA wal_checkpoint(TRUNCATE)"
	if s.shared {
		settle = "VACUUM ANALYZE"
	}
	if err := s.db.Exec(settle).Error; err != nil {
		b.Fatal(err)
	}
}
