package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestCachePartitionsByCallerClass: what a restricted caller fetched is
// never a cache hit for an unrestricted one, and the reverse: neither can
// tell whether or when the other class fetched a URL. Within a class the
// cache still answers.
func TestCachePartitionsByCallerClass(t *testing.T) {
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
		_, body := post(t, srv.URL+"/v1/fetch", key, map[string]any{"url": origin.URL + path})
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
