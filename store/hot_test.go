package store

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// TestHotKeepsMostRecentlyUsed: the memory layer drops the least recently
// used snapshot beyond its bound, never serves an expired one, and a
// snapshot over the bound is not kept.
func TestHotKeepsMostRecentlyUsed(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h := newHot(100)
	x := bytes.Repeat([]byte{'x'}, 40)
	h.put("a", x, now, now.Add(time.Hour))
	h.put("b", x, now, now.Add(time.Hour))
	if _, _, ok := h.get("a", now); !ok { // a is now the most recently used
		t.Fatal("a is not kept")
	}
	h.put("c", x, now, now.Add(time.Minute))
	if _, _, ok := h.get("b", now); ok {
		t.Error("b, the least recently used, outlived the bound")
	}
	for _, k := range []string{"a", "c"} {
		if _, _, ok := h.get(k, now); !ok {
			t.Errorf("%s was dropped", k)
		}
	}
	if _, _, ok := h.get("c", now.Add(time.Minute)); ok {
		t.Error("an expired snapshot was served")
	}
	h.put("a", bytes.Repeat([]byte{'y'}, 101), now, now.Add(time.Hour))
	if _, _, ok := h.get("a", now); ok || h.size != 0 {
		t.Errorf("a snapshot over the bound: served %v, %d bytes kept", ok, h.size)
	}
}

// TestCacheHitFromMemory: a hit on a snapshot just stored or just read is
// answered from memory, without the database, while it is fresh.
func TestCacheHitFromMemory(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	c := s.CacheTable(1 << 20)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c.now = func() time.Time { return now }
	if err := c.Put(ctx, "k", []byte("kept"), now.Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	snap, at, ok, err := c.Get(ctx, "k")
	if !ok || err != nil || string(snap) != "kept" || !at.Equal(now) {
		t.Fatalf("hit with the database closed: %q %v %v %v", snap, at, ok, err)
	}
	now = now.Add(2 * time.Hour)
	if _, _, ok, _ := c.Get(ctx, "k"); ok {
		t.Fatal("an expired snapshot was served from memory")
	}
}
