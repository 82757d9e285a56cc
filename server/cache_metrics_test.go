package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestCacheMetricsByStage: each cache stage's size is exported by its
// position in the pipeline, a stage that stored nothing at zero.
func TestCacheMetricsByStage(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	// guard, fetch, extract, then the cache stages at 4 and 5.
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`, `stage "cache" {
    content_types = ["application/json"]
  }`)
	post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article"})
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	text := string(page)
	for _, want := range []string{
		`sift_cache_entries{stage="4"} 1`,
		`sift_cache_entries{stage="5"} 0`,
		`sift_cache_bytes{stage="5"} 0`,
		`sift_cache_dropped_total{reason="evicted",stage="4"} 0`,
		`sift_cache_dropped_total{reason="expired",stage="5"} 0`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if !strings.Contains(text, `sift_cache_bytes{stage="4"} `) || strings.Contains(text, `sift_cache_bytes{stage="4"} 0`) {
		t.Errorf("stage 4's bytes missing or zero")
	}
}
