package store

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"
)

// Each cache stage's entries are counted apart; replacing an entry moves
// its bytes, and what a put drops is reported by stage and reason.
func TestCacheStageStats(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		c := s.CacheTable(1000)
		now := time.Now()
		put := func(stage int, key string, size int, expires time.Time) {
			t.Helper()
			if err := c.At(stage).Put(ctx, key, bytes.Repeat([]byte{'x'}, size), expires, false); err != nil {
				t.Fatal(err)
			}
		}
		put(3, "a", 100, now.Add(time.Hour))
		put(3, "b", 200, now.Add(time.Hour))
		put(5, "c", 300, now.Add(time.Hour))
		put(3, "a", 150, now.Add(time.Hour)) // replaced: 50 more bytes
		want := []CacheStageStats{{Stage: 3, Bytes: 350, Entries: 2}, {Stage: 5, Bytes: 300, Entries: 1}}
		if got, err := c.Stats(ctx); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("stats %+v %v, want %+v", got, err, want)
		}
		put(5, "d", 500, now.Add(time.Hour)) // 1,150 bytes: the oldest (b, stage 3... a was replaced later) goes
		got, _ := c.Stats(ctx)
		var total int64
		for _, st := range got {
			total += st.Bytes
		}
		if bytesAll, entries, _ := s.CacheStats(ctx); total != bytesAll || bytesAll > 1000 || entries != 3 {
			t.Fatalf("after eviction: stages %+v, total %d bytes %d entries", got, bytesAll, entries)
		}
		if d := c.Dropped(); d[DropKey{Stage: 3, Reason: "evicted"}] != 1 {
			t.Fatalf("dropped %v, want one evicted from stage 3", d)
		}
	})
}

// CacheClear deletes one stage's entries (or all), keeps the totals
// right, and a running table stops serving its copies in memory.
func TestCacheClear(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		running := s.CacheTable(1 << 20)
		now := time.Now()
		running.now = func() time.Time { return now }
		for i := range 3 {
			for _, stage := range []int{3, 5} {
				key := fmt.Sprintf("s%d-%d", stage, i)
				if err := running.At(stage).Put(ctx, key, []byte("snap"), now.Add(time.Hour), false); err != nil {
					t.Fatal(err)
				}
				if _, _, ok, _ := running.Get(ctx, key); !ok {
					t.Fatalf("%s not stored", key)
				}
			}
		}
		n, err := s.CacheClear(ctx, 3)
		if err != nil || n != 3 {
			t.Fatalf("clear stage 3: %d %v", n, err)
		}
		if got, _ := s.CacheStageStats(ctx); !reflect.DeepEqual(got, []CacheStageStats{{Stage: 3}, {Stage: 5, Bytes: 12, Entries: 3}}) {
			t.Fatalf("stats after clearing stage 3: %+v", got)
		}
		now = now.Add(2 * generationEvery)
		if _, _, ok, _ := running.Get(ctx, "s3-0"); ok {
			t.Fatal("a cleared entry was served from memory")
		}
		if _, _, ok, _ := running.Get(ctx, "s5-0"); !ok {
			t.Fatal("another stage's entry went with the clear")
		}
		if n, err := s.CacheClear(ctx, -1); err != nil || n != 3 {
			t.Fatalf("clear all: %d %v", n, err)
		}
		if b, e, _ := s.CacheStats(ctx); b != 0 || e != 0 {
			t.Fatalf("after clearing all: %d bytes, %d entries", b, e)
		}
	})
}

// A clear larger than one batch takes several transactions and deletes
// everything.
func TestCacheClearInBatches(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	c := s.CacheTable(1 << 30)
	for i := range clearBatch + 7 {
		if err := c.At(2).Put(ctx, fmt.Sprintf("k%d", i), []byte("x"), time.Now().Add(time.Hour), false); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.CacheClear(ctx, 2); err != nil || n != clearBatch+7 {
		t.Fatalf("cleared %d: %v", n, err)
	}
	if _, e, _ := s.CacheStats(ctx); e != 0 {
		t.Fatalf("%d entries left", e)
	}
}

// A lookup reads both tables by primary key, never scanning one, however
// many entries there are (SQLite's plan; PostgreSQL's planner may scan a
// table too small to be worth an index, so it is not asked).
func TestCacheLookupUsesPrimaryKeys(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	c := s.CacheTable(1 << 30)
	for i := range 200 {
		if err := c.At(i%3).Put(ctx, fmt.Sprintf("k%03d", i), []byte("x"), time.Now().Add(time.Duration(i)*time.Minute+time.Minute), false); err != nil {
			t.Fatal(err)
		}
	}
	query := s.db.ToSQL(func(tx *gorm.DB) *gorm.DB {
		var row hitRow
		return hitQuery(tx, "k007", time.Now()).Take(&row)
	})
	var plan []struct {
		ID, Parent, Notused int
		Detail              string
	}
	if err := s.db.Raw("EXPLAIN QUERY PLAN " + query).Scan(&plan).Error; err != nil {
		t.Fatal(err)
	}
	t.Logf("plan %+v", plan)
	if len(plan) != 2 {
		t.Fatalf("plan %+v", plan)
	}
	for _, step := range plan {
		if !strings.HasPrefix(step.Detail, "SEARCH") || !strings.Contains(step.Detail, "(cache_key=?)") {
			t.Errorf("lookup step %q is not a primary-key search", step.Detail)
		}
	}
}
