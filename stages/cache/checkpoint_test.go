package cache

import (
	"context"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/siftd/sift/stages"
)

// A second cache stage fills while the first is warm: with `cache,
// digest, cache`, a question the first cache has the page for is
// digested once, and asked again it is answered from the second cache,
// as old as the page it was digested from.
func TestSecondCacheFillsWhileFirstWarm(t *testing.T) {
	runs := map[string]int{}
	c := buildChain(t, []string{"guard", "fetch", "extract", "cache", "digest", "cache"}, runs, http.Header{})
	first := run(t, c, "http://a.example/", "q1")
	second := run(t, c, "http://a.example/", "q2") // first cache warm, second cold for q2
	third := run(t, c, "http://a.example/", "q2")
	if want := map[string]int{"guard": 3, "fetch": 1, "extract": 1, "digest": 2}; !reflect.DeepEqual(runs, want) {
		t.Fatalf("runs %v, want %v", runs, want)
	}
	if first.Cached() || !second.Cached() || !third.Cached() || third.Digest != "about x: q2" {
		t.Fatalf("cached %v %v %v, third digest %q", first.Cached(), second.Cached(), third.Cached(), third.Digest)
	}
	if !third.CachedAt.Equal(second.CachedAt) {
		t.Fatalf("the digest's snapshot says %v, the page it was made from %v", third.CachedAt, second.CachedAt)
	}
}

// A chain reordered on the same store never restores a snapshot taken at
// another position: a snapshot taken after fetch is not clean content.
func TestReorderedChainMissesOtherShape(t *testing.T) {
	st := openStore(t)
	runs := map[string]int{}
	before := buildChainOn(t, st, []string{"guard", "fetch", "cache", "extract"}, runs, http.Header{})
	run(t, before, "http://a.example/", "")
	after := buildChainOn(t, st, []string{"guard", "fetch", "extract", "cache"}, runs, http.Header{})
	doc := run(t, after, "http://a.example/", "")
	if doc.Cached() || doc.Extraction == nil || runs["fetch"] != 2 {
		t.Fatalf("after the reorder: cached %v, extraction %v, runs %v", doc.Cached(), doc.Extraction, runs)
	}
	if again := run(t, after, "http://a.example/", ""); !again.Cached() || again.Extraction == nil || again.Extraction.Content != "x" {
		t.Fatalf("the reordered chain's own snapshot: cached %v, extraction %v", again.Cached(), again.Extraction)
	}
}

// A derived snapshot expires with the one it was made from: the second
// cache never serves a page past the first's lifetime.
func TestDerivedSnapshotExpiresWithItsSource(t *testing.T) {
	runs := map[string]int{}
	// The store expires entries by the wall clock: the stages' clock
	// starts there.
	clock := time.Now().UTC().Truncate(time.Second)
	start := clock
	var puts []time.Time
	c := buildChainOn(t, openStore(t), []string{"guard", "fetch", "extract", "cache", "digest", "cache"}, runs,
		http.Header{"Cache-Control": {"max-age=3600"}}, func(s *Stage) {
			s.now = func() time.Time { return clock }
			s.store = recorder{CacheStore: s.store, expires: &puts}
		})
	run(t, c, "http://a.example/", "q1")
	clock = clock.Add(50 * time.Minute)
	run(t, c, "http://a.example/", "q2") // digested from a 50-minute-old page
	want := start.Add(time.Hour)
	if len(puts) != 3 || !puts[2].Equal(want) {
		t.Fatalf("snapshots stored until %v; want the third until %v, when its page expires", puts, want)
	}
}

// recorder notes when each snapshot put expires.
type recorder struct {
	stages.CacheStore
	expires *[]time.Time
}

func (r recorder) Put(ctx context.Context, key string, snap []byte, expires time.Time, restricted bool) error {
	*r.expires = append(*r.expires, expires)
	return r.CacheStore.Put(ctx, key, snap, expires, restricted)
}

// An unreadable snapshot (another format, or damaged) is a miss, and the
// answer replaces it.
func TestUnreadableSnapshotIsAMiss(t *testing.T) {
	st := openStore(t)
	runs := map[string]int{}
	var key string
	c := buildChainOn(t, st, []string{"guard", "fetch", "extract", "cache"}, runs, http.Header{}, func(s *Stage) {
		key = s.key(&stages.Doc{Target: &stages.Target{URL: "http://a.example/"}, Request: stages.Request{URL: "http://a.example/"}})
	})
	old := []byte(`{"response":{"FinalURL":"http://a.example/","Status":200,"Body":"PHA+eDwvcD4="}}`)
	if err := st.CacheTable(1<<20).At(3).Put(context.Background(), key, old, time.Now().Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	if doc := run(t, c, "http://a.example/", ""); doc.Cached() || runs["fetch"] != 1 {
		t.Fatalf("an old-format snapshot was restored: cached %v, runs %v", doc.Cached(), runs)
	}
	if doc := run(t, c, "http://a.example/", ""); !doc.Cached() || doc.Extraction.Content != "x" {
		t.Fatalf("the answer did not replace the unreadable snapshot: cached %v", doc.Cached())
	}
}
