package store

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/siftd/sift/internal/testkit/pgtest"
)

// classPut is one run of puts: n snapshots of size bytes under keys
// prefix0, prefix1, …, by a caller of class restricted.
type classPut struct {
	prefix     string
	restricted bool
	n, size    int
}

// TestCacheClassesKeepTheirShares: each caller class's entries keep to
// its share of the budget, and a class's puts evict only its own entries,
// oldest first: a restricted caller filling the cache leaves the others'
// pages in place, and the reverse.
func TestCacheClassesKeepTheirShares(t *testing.T) {
	const budget = 4000 // restricted callers' share 1,000 at a quarter, the others' 3,000
	tests := []struct {
		name  string
		share float64
		puts  []classPut
		// kept and gone are keys that must and must not be cached after.
		kept, gone []string
	}{
		{"a restricted flood leaves the others' entries", 0.25,
			[]classPut{{"open", false, 10, 100}, {"r", true, 50, 100}},
			[]string{"open0", "open9", "r40", "r49"}, []string{"r0", "r39"}},
		{"an unrestricted flood leaves the restricted entries", 0.25,
			[]classPut{{"r", true, 5, 100}, {"open", false, 100, 100}},
			[]string{"r0", "r4", "open70", "open99"}, []string{"open0", "open69"}},
		{"each class evicts its own oldest", 0.25,
			[]classPut{{"open", false, 30, 100}, {"r", true, 10, 100}, {"open-new", false, 1, 100}, {"r-new", true, 1, 100}},
			[]string{"open1", "open29", "open-new0", "r1", "r9", "r-new0"}, []string{"open0", "r0"}},
		{"a snapshot over its class's share is not kept", 0.25,
			[]classPut{{"r", true, 1, 1001}, {"open", false, 1, 1001}},
			[]string{"open0"}, []string{"r0"}},
		{"no share: restricted callers' entries are not kept, the others have it all", 0,
			[]classPut{{"r", true, 3, 100}, {"open", false, 40, 100}},
			[]string{"open0", "open39"}, []string{"r0", "r2"}},
	}
	eachStore(t, func(t *testing.T, open opener) {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				ctx := context.Background()
				s := open(t)
				c := s.CacheTableIn(budget, 0, tc.share)
				now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
				c.now = func() time.Time { return now }
				for _, p := range tc.puts {
					for i := range p.n {
						if err := c.Put(ctx, fmt.Sprintf("%s%d", p.prefix, i), bytes.Repeat([]byte{'x'}, p.size), now.Add(time.Hour), p.restricted); err != nil {
							t.Fatal(err)
						}
						now = now.Add(time.Second)
						checkClassTotals(t, s, c)
					}
				}
				for _, k := range tc.kept {
					if _, _, ok, err := c.Get(ctx, k); !ok || err != nil {
						t.Errorf("%s was evicted (%v)", k, err)
					}
				}
				for _, k := range tc.gone {
					if _, _, ok, _ := c.Get(ctx, k); ok {
						t.Errorf("%s is still cached", k)
					}
				}
			})
		}
	})
}

// checkClassTotals fails unless the running totals, the whole cache's and
// the restricted callers', match the tables, and each class keeps within
// its share.
func checkClassTotals(t *testing.T, s *Store, c *CacheTable) {
	t.Helper()
	checkTotals(t, s, c.budget)
	var stats CacheStats
	if err := s.db.Where("id = ?", statsID).Take(&stats).Error; err != nil {
		t.Fatal(err)
	}
	var restricted int64
	if err := s.db.Model(&CacheEntry{}).Where("restricted = ?", true).Select("COALESCE(SUM(bytes), 0)").Scan(&restricted).Error; err != nil {
		t.Fatal(err)
	}
	if stats.RestrictedBytes != restricted {
		t.Fatalf("the restricted total is %d; the table holds %d", stats.RestrictedBytes, restricted)
	}
	if restricted > c.classBudget(true) || stats.Bytes-restricted > c.classBudget(false) {
		t.Fatalf("restricted %d of %d, the others %d of %d", restricted, c.classBudget(true), stats.Bytes-restricted, c.classBudget(false))
	}
}

// TestCacheEvictionWalksTheClassIndex: eviction reads a class's oldest
// entries off the index by class and age, scanning no table and sorting
// nothing, so a put's cost does not grow with the cache (SQLite's plan,
// and PostgreSQL's with sequential scans priced out, as its planner
// scans a small table rather than use an index, and bitmap scans too).
func TestCacheEvictionWalksTheClassIndex(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		c := s.CacheTableIn(1<<30, 0, 0.25)
		for i := range 200 {
			if err := c.Put(ctx, fmt.Sprintf("k%03d", i), []byte("x"), time.Now().Add(time.Hour), i%2 == 0); err != nil {
				t.Fatal(err)
			}
		}
		for _, restricted := range []bool{false, true} {
			query := s.db.ToSQL(func(tx *gorm.DB) *gorm.DB {
				var rows []CacheEntry
				return oldestQuery(tx, restricted).Find(&rows)
			})
			var plan []string
			if s.shared {
				err := s.db.Transaction(func(tx *gorm.DB) error {
					// Sequential and bitmap scans priced out: on 200 rows the
					// planner's choice is a matter of row width (the key_tag
					// column tipped it to a bitmap scan and a sort), not of
					// whether the index serves the order.
					if err := tx.Exec("SET LOCAL enable_seqscan = off").Error; err != nil {
						return err
					}
					if err := tx.Exec("SET LOCAL enable_bitmapscan = off").Error; err != nil {
						return err
					}
					return tx.Raw("EXPLAIN " + query).Scan(&plan).Error
				})
				if err != nil {
					t.Fatal(err)
				}
			} else {
				var steps []struct {
					ID, Parent, Notused int
					Detail              string
				}
				if err := s.db.Raw("EXPLAIN QUERY PLAN " + query).Scan(&steps).Error; err != nil {
					t.Fatal(err)
				}
				for _, st := range steps {
					plan = append(plan, st.Detail)
				}
			}
			text := strings.Join(plan, "\n")
			t.Logf("restricted %v: %s\n%s", restricted, query, text)
			if !strings.Contains(text, "idx_cache_entries_class_age") || strings.Contains(text, "Sort") ||
				strings.Contains(text, "TEMP B-TREE") || strings.Contains(text, "SCAN cache_entries") || strings.Contains(text, "Seq Scan") {
				t.Errorf("eviction (restricted %v) does not walk the class index:\n%s", restricted, text)
			}
		}
	})
}

// TestCacheMigratesFromBeforeClasses: a database made before the classes
// had shares (no class column, no restricted total, the index by age
// alone) opens with its entries kept and counted as unrestricted, the old
// index gone, and each class's puts then keep to their share.
func TestCacheMigratesFromBeforeClasses(t *testing.T) {
	ctx := context.Background()
	for _, db := range []struct {
		name string
		// reopen opens the same database again.
		reopen func(t *testing.T) func() *Store
	}{
		{"sqlite", func(t *testing.T) func() *Store {
			dir := t.TempDir()
			return func() *Store {
				s, err := OpenSQLite(ctx, dir)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
		}},
		{"postgres", func(t *testing.T) func() *Store {
			dsn := pgtest.DB(t)
			return func() *Store {
				s, err := OpenPostgres(ctx, dsn)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
		}},
	} {
		t.Run(db.name, func(t *testing.T) {
			reopen := db.reopen(t)
			s := reopen()
			old := s.CacheTableIn(4000, 0, 0)
			for i := range 20 {
				if err := old.Put(ctx, fmt.Sprintf("old%02d", i), bytes.Repeat([]byte{'x'}, 100), time.Now().Add(time.Hour), false); err != nil {
					t.Fatal(err)
				}
			}
			// Back to the layout before the classes.
			m := s.db.Migrator()
			for _, step := range []func() error{
				func() error { return m.DropIndex(&CacheEntry{}, "idx_cache_entries_class_age") },
				func() error { return m.DropColumn(&CacheEntry{}, "restricted") },
				func() error { return m.DropColumn(&CacheStats{}, "restricted_bytes") },
				func() error {
					return s.db.Exec("CREATE INDEX " + oldAgeIndex + " ON cache_entries (created_at, cache_key)").Error
				},
			} {
				if err := step(); err != nil {
					t.Fatal(err)
				}
			}
			if m.HasColumn(&CacheEntry{}, "restricted") || !m.HasIndex(&CacheEntry{}, oldAgeIndex) {
				t.Fatal("the old layout was not made")
			}
			s.Close()

			s = reopen()
			defer s.Close()
			m = s.db.Migrator()
			if m.HasIndex(&CacheEntry{}, oldAgeIndex) || !m.HasIndex(&CacheEntry{}, "idx_cache_entries_class_age") {
				t.Fatal("the index by age alone is still there, or the one by class and age is missing")
			}
			c := s.CacheTableIn(4000, 0, 0.25)
			if snap, _, ok, err := c.Get(ctx, "old00"); !ok || err != nil || len(snap) != 100 {
				t.Fatalf("an entry from before: %v %v", ok, err)
			}
			if total, entries, _ := s.CacheStats(ctx); total != 2000 || entries != 20 {
				t.Fatalf("totals %d bytes, %d entries after the migration", total, entries)
			}
			checkClassTotals(t, s, c)
			// A restricted flood evicts none of the old, unrestricted entries.
			for i := range 30 {
				if err := c.Put(ctx, fmt.Sprintf("r%02d", i), bytes.Repeat([]byte{'y'}, 100), time.Now().Add(time.Hour), true); err != nil {
					t.Fatal(err)
				}
				checkClassTotals(t, s, c)
			}
			for i := range 20 {
				if _, _, ok, _ := c.Get(ctx, fmt.Sprintf("old%02d", i)); !ok {
					t.Errorf("old%02d was evicted by restricted puts", i)
				}
			}
			// Unrestricted puts past the others' 3,000 bytes evict the oldest.
			for i := range 15 {
				if err := c.Put(ctx, fmt.Sprintf("new%02d", i), bytes.Repeat([]byte{'z'}, 100), time.Now().Add(time.Hour), false); err != nil {
					t.Fatal(err)
				}
				checkClassTotals(t, s, c)
			}
			if _, _, ok, _ := c.Get(ctx, "old00"); ok {
				t.Error("the oldest entry outlived the others' budget")
			}
		})
	}
}
