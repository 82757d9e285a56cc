package store

import (
	"bytes"
	"context"
	"testing"
	"time"
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
		if err := c.Put(ctx, "k", []byte("one"), now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		snap, at, ok, err := c.Get(ctx, "k")
		if !ok || err != nil || string(snap) != "one" || !at.Equal(now) {
			t.Fatalf("get: %q %v %v %v", snap, at, ok, err)
		}
		if err := c.Put(ctx, "k", []byte("two"), now.Add(time.Hour)); err != nil {
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
			if err := c.Put(ctx, k, bytes.Repeat([]byte("x"), 100), now.Add(time.Hour)); err != nil {
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
		if total, _ := s.CacheBytes(ctx); total != 200 {
			t.Errorf("cache holds %d bytes, want 200", total)
		}
		if err := c.Put(ctx, "huge", bytes.Repeat([]byte("x"), 300), now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if total, _ := s.CacheBytes(ctx); total > 250 {
			t.Errorf("an entry over the whole budget left %d bytes", total)
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
	if err := s.CacheTable(1<<20).Put(ctx, "k", []byte("kept"), time.Now().Add(time.Hour)); err != nil {
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
