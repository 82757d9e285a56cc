package server

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"testing"
	"time"
)

// A hit answers the page's content address as the miss did, from the
// snapshot: the address of the bytes fetched.
func TestCachedAnswerKeepsHash(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	resp, err := http.Get(origin.URL + "/article")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	sum := sha256.Sum256(page)
	want := "sha256:" + hex.EncodeToString(sum[:])
	for i, cached := range []bool{false, true} {
		_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article"})
		src := body["source"].(map[string]any)
		if src["hash"] != want || src["cached"] != cached {
			t.Fatalf("request %d: hash %v cached %v; want %s, %v", i, src["hash"], src["cached"], want, cached)
		}
	}
}

// A hit reports the time its content was fetched, as the miss that fetched
// it did: the miss's fetched_at is the hit's fetched_at and cached_at, on
// /v1/fetch and on /v2/scrape (to the second there), which reads the entry
// of a fetch with images: true.
func TestCachedAnswerKeepsFetchedAt(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	var times []any
	for range 2 {
		_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article", "images": true})
		src := body["source"].(map[string]any)
		times = append(times, src["fetched_at"])
		if src["cached"] == true {
			times = append(times, src["cached_at"])
		}
	}
	if len(times) != 3 || times[0] != times[1] || times[1] != times[2] {
		t.Fatalf("/v1/fetch: the miss's fetched_at, then the hit's fetched_at and cached_at: %v", times)
	}
	_, body := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/article"})
	meta := body["data"].(map[string]any)["metadata"].(map[string]any)
	sift := meta["sift"].(map[string]any)
	fetched, err := time.Parse(time.RFC3339Nano, times[0].(string))
	if err != nil || meta["cacheState"] != "hit" || sift["fetchedAt"] != fetched.Format(time.RFC3339) || meta["cachedAt"] != sift["fetchedAt"] {
		t.Fatalf("/v2/scrape: %v %v, want fetched and cached at %s", meta["cacheState"], sift, fetched.Format(time.RFC3339))
	}
}
