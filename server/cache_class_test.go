package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/siftd/sift/internal/testkit/pgtest"
)

// TestCachePartitionsByCallerClass: what a restricted caller fetched is
// never a cache hit for an unrestricted one, and the reverse: neither can
// tell whether or when the other class fetched a URL. Within a class the
// cache still answers.
func TestCachePartitionsByCallerClass(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "plain words")
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	fetch := func(key, path string) map[string]any {
		t.Helper()
		// images: true, as a scrape asks, so that both read one entry.
		_, body := post(t, srv.URL+"/v1/fetch", key, map[string]any{"url": origin.URL + path, "images": true})
		src, ok := body["source"].(map[string]any)
		if !ok {
			t.Fatalf("%s: %v", path, body)
		}
		return src
	}
	scrapeState := func(key, path string) any {
		t.Helper()
		_, body := post(t, srv.URL+"/v2/scrape", key, map[string]any{"url": origin.URL + path})
		data, ok := body["data"].(map[string]any)
		if !ok {
			t.Fatalf("%s: %v", path, body)
		}
		return data["metadata"].(map[string]any)["cacheState"]
	}
	for _, tc := range []struct{ name, first, second, path string }{
		{"restricted then open", quietKey, testKey, "/r"},
		{"open then restricted", testKey, quietKey, "/o"},
	} {
		before := hits.Load()
		if src := fetch(tc.first, tc.path); src["cached"] != false {
			t.Fatalf("%s: first fetch %v", tc.name, src)
		}
		src := fetch(tc.second, tc.path)
		if src["cached"] != false || src["cached_at"] != nil {
			t.Errorf("%s: the other class saw the first fetch: %v", tc.name, src)
		}
		if state := scrapeState(tc.second, tc.path); state != "hit" {
			// The second class's own fetch is now cached for it.
			t.Errorf("%s: the second class's own entry: cacheState %v", tc.name, state)
		}
		if got := hits.Load() - before; got != 2 {
			t.Errorf("%s: origin hit %d times, want once per class", tc.name, got)
		}
	}
	if state := scrapeState(quietKey, "/s"); state != "miss" {
		t.Fatalf("first scrape: cacheState %v", state)
	}
	if state := scrapeState(testKey, "/s"); state != "miss" {
		t.Errorf("an open caller's scrape after a restricted one's: cacheState %v, want miss", state)
	}
}

// TestRestrictedCallersCannotEvictOthers: a restricted caller fetching
// far more than the cache holds evicts only its own class's entries, on
// SQLite and on PostgreSQL: the pages an unrestricted caller fetched
// before are still hits, and the restricted caller's newest are hits for
// it.
func TestRestrictedCallersCannotEvictOthers(t *testing.T) {
	t.Parallel()
	var hits sync.Map // path → *atomic.Int32
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := hits.LoadOrStore(r.URL.Path, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		w.Header().Set("Content-Type", "text/plain")
		// 4 KiB of words that compress poorly, so each snapshot is
		// several KiB.
		seed := uint32(len(r.URL.Path)) * 2654435761
		for _, c := range r.URL.Path {
			seed = seed*31 + uint32(c)
		}
		var b strings.Builder
		for b.Len() < 4<<10 {
			seed = seed*1103515245 + 12345
			b.WriteString(strconv.FormatUint(uint64(seed), 36))
			b.WriteByte(' ')
		}
		fmt.Fprint(w, b.String())
	}))
	defer origin.Close()
	originHits := func(path string) int32 {
		if n, ok := hits.Load(path); ok {
			return n.(*atomic.Int32).Load()
		}
		return 0
	}
	for _, db := range []struct {
		name  string
		store func(t *testing.T) string // the store block, "" for SQLite
	}{
		{"sqlite", func(*testing.T) string { return "" }},
		{"postgres", func(t *testing.T) string {
			dsn, err := pgtest.New(t).CreateDB("sift_cache_class")
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("store {\n  driver = \"postgres\"\n  dsn = %q\n}\n", dsn)
		}},
	} {
		t.Run(db.name, func(t *testing.T) {
			// 64 KiB hold about nine snapshots; nothing is kept in memory,
			// so every hit is the database's.
			srv := newTestServer(t, origin, testOptions{extraConfig: db.store(t)},
				"stage \"cache\" {\n    max_bytes = \"64KiB\"\n    memory = \"1KiB\"\n  }")
			fetch := func(key, path string) bool {
				t.Helper()
				_, body := post(t, srv.URL+"/v1/fetch", key, map[string]any{"url": origin.URL + path})
				src, ok := body["source"].(map[string]any)
				if !ok {
					t.Fatalf("%s: %v", path, body)
				}
				return src["cached"] == true
			}
			prefix := "/" + db.name
			open := []string{prefix + "/open/0", prefix + "/open/1", prefix + "/open/2"}
			for _, p := range open {
				if fetch(testKey, p) {
					t.Fatalf("%s: a hit before any fetch", p)
				}
			}
			const flood = 30
			for i := range flood {
				fetch(quietKey, fmt.Sprintf("%s/restricted/%d", prefix, i))
			}
			for _, p := range open {
				if !fetch(testKey, p) || originHits(p) != 1 {
					t.Errorf("%s: evicted by the restricted caller's fetches (origin hit %d times)", p, originHits(p))
				}
			}
			last := fmt.Sprintf("%s/restricted/%d", prefix, flood-1)
			if !fetch(quietKey, last) {
				t.Errorf("%s: the restricted caller's newest page is not cached for it", last)
			}
		})
	}
}
