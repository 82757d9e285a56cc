package store

import (
	"context"
	"testing"
	"time"
)

// TestRetireCache: entries of tags no stage reads leave the totals and
// the lookups at once; their snapshots go with PurgeOrphans, and the kept
// entries stay whole.
func TestRetireCache(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		now := time.Now()
		for _, e := range []struct{ key, tag string }{{"new1", "v2:a"}, {"new2", "v2:a"}, {"old1", "v1:a"}, {"old2", ""}, {"other", "v2:b"}} {
			if _, err := s.CachePut(ctx, e.key, e.tag, 0, false, make([]byte, 100), now, now.Add(time.Hour), now.Add(time.Hour), 1<<20); err != nil {
				t.Fatal(err)
			}
		}
		r, err := s.RetireCache(ctx, func(tag string) bool { return tag == "v2:a" })
		if err != nil {
			t.Fatal(err)
		}
		if r.Entries != 3 || r.Bytes != 300 {
			t.Fatalf("retired %+v, want 3 entries of 300 bytes", r)
		}
		if bytes, entries, _ := s.CacheStats(ctx); bytes != 200 || entries != 2 {
			t.Errorf("totals after retiring: %d bytes in %d entries, want 200 in 2", bytes, entries)
		}
		if st, _ := s.CacheStageStats(ctx); len(st) != 1 || st[0].Bytes != 200 || st[0].Entries != 2 {
			t.Errorf("stage totals after retiring: %+v", st)
		}
		for key, want := range map[string]bool{"new1": true, "new2": true, "old1": false, "old2": false, "other": false} {
			if _, _, ok, err := s.CacheGet(ctx, key, now); ok != want || err != nil {
				t.Errorf("%s: hit %v (%v), want %v", key, ok, err, want)
			}
		}
		n, err := s.PurgeOrphans(ctx)
		if err != nil || n != 3 {
			t.Fatalf("purged %d snapshots (%v), want 3", n, err)
		}
		var blobs int64
		if err := s.db.Model(&CacheBlob{}).Count(&blobs).Error; err != nil || blobs != 2 {
			t.Errorf("%d snapshots left (%v), want the 2 kept", blobs, err)
		}
		if r, _ := s.RetireCache(ctx, func(tag string) bool { return tag == "v2:a" }); r.Entries != 0 {
			t.Errorf("a second retire took %+v", r)
		}
	})
}
