package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/siftd/sift/internal/testkit/loadtest"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// validatingOrigin serves one page with an ETag and a Last-Modified,
// answering 304 to a request that names its current ETag (or, without
// one, its Last-Modified), and counts what it answered.
type validatingOrigin struct {
	*httptest.Server
	mu         sync.Mutex
	etag, body string
	maxAge     int
	full, not  int      // answers 200 and 304
	conditions []string // the If-None-Match and If-Modified-Since of each request
}

const lastModified = "Tue, 01 Dec 2026 10:00:00 GMT"

func newValidatingOrigin(t *testing.T) *validatingOrigin {
	o := &validatingOrigin{etag: `"v1"`, body: "first version"}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		defer o.mu.Unlock()
		o.conditions = append(o.conditions, r.Header.Get("If-None-Match")+"|"+r.Header.Get("If-Modified-Since"))
		w.Header().Set("ETag", o.etag)
		w.Header().Set("Last-Modified", lastModified)
		w.Header().Set("Cache-Control", fmt.Sprintf("max-age=%d", o.maxAge))
		if inm := r.Header.Get("If-None-Match"); inm == o.etag {
			o.not++
			w.WriteHeader(http.StatusNotModified)
			return
		}
		o.full++
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><head><title>Page</title></head><body><main><h1>Page</h1><p>The %s of the page, long enough to be read as its main content by the extractor.</p></main></body></html>", o.body)
	}))
	t.Cleanup(o.Close)
	return o
}

func (o *validatingOrigin) counts() (full, not int, last string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.full, o.not, o.conditions[len(o.conditions)-1]
}

// TestRevalidation: a cached page that is no longer fresh enough
// (fresh: true, a maxAge of 0) or has expired is asked for again with
// its ETag and Last-Modified; the origin's 304 renews the snapshot, its
// body never sent again nor extracted again, and the answer is the
// stored content; a changed page (a new ETag) is sent whole and replaces
// it. Each revalidation is counted in the metrics.
func TestRevalidation(t *testing.T) {
	t.Parallel()
	origin := newValidatingOrigin(t)
	origin.maxAge = 3600
	srv := newTestServer(t, origin.Server, testOptions{}, `stage "cache" {}`)
	fetch := func(fresh bool) map[string]any {
		t.Helper()
		resp, out := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/page", "fresh": fresh})
		if resp.StatusCode != 200 {
			t.Fatalf("%d %v", resp.StatusCode, out)
		}
		return out
	}
	content := func(out map[string]any) string { s, _ := out["content"].(string); return s }

	first := fetch(false)
	if full, not, cond := origin.counts(); full != 1 || not != 0 || cond != "|" || !strings.Contains(content(first), "first version") {
		t.Fatalf("first fetch: %d full, %d not modified, conditions %q", full, not, cond)
	}
	again := fetch(true)
	full, not, cond := origin.counts()
	if full != 1 || not != 1 || cond != `"v1"|`+lastModified {
		t.Fatalf("fresh fetch of a cached page: %d full, %d not modified, conditions %q", full, not, cond)
	}
	if content(again) != content(first) {
		t.Errorf("after the 304: %q, want the stored %q", content(again), content(first))
	}
	if src, _ := again["source"].(map[string]any); src["cached"] != false {
		t.Errorf("after the 304 the source says %v", src)
	}
	// The renewed snapshot answers from the cache.
	if hit := fetch(false); hit["source"].(map[string]any)["cached"] != true {
		t.Errorf("the renewed snapshot did not answer: %v", hit["source"])
	}
	if full, not, _ := origin.counts(); full != 1 || not != 1 {
		t.Errorf("a hit reached the origin: %d full, %d not modified", full, not)
	}

	origin.mu.Lock()
	origin.etag, origin.body = `"v2"`, "second version"
	origin.mu.Unlock()
	changed := fetch(true)
	if full, not, _ := origin.counts(); full != 2 || not != 1 || !strings.Contains(content(changed), "second version") {
		t.Fatalf("a changed page: %d full, %d not modified, content %q", full, not, content(changed))
	}
	if hit := fetch(false); !strings.Contains(content(hit), "second version") {
		t.Errorf("the changed page did not replace the snapshot: %q", content(hit))
	}

	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	metrics, _ := io.ReadAll(resp.Body)
	for _, want := range []string{`sift_cache_revalidations_total{result="not_modified"} 1`, `sift_cache_revalidations_total{result="modified"} 1`,
		// Extracted for the first version and the second, never after a 304.
		`sift_stage_duration_seconds_count{stage="extract"} 2`} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestRevalidationOnExpiry: a snapshot past its max-age is kept, and the
// next request revalidates it instead of fetching it whole.
func TestRevalidationOnExpiry(t *testing.T) {
	t.Parallel()
	origin := newValidatingOrigin(t)
	origin.maxAge = 1
	srv := newTestServer(t, origin.Server, testOptions{}, `stage "cache" {}`)
	url := origin.URL + "/page"
	if resp, out := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": url}); resp.StatusCode != 200 {
		t.Fatalf("%d %v", resp.StatusCode, out)
	}
	// Within the second the snapshot answers; past it, the origin is
	// asked whether it changed.
	testwait.For(t, "the snapshot to expire and be revalidated", func() bool {
		resp, out := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": url})
		if resp.StatusCode != 200 {
			t.Fatalf("%d %v", resp.StatusCode, out)
		}
		_, not, _ := origin.counts()
		return not > 0
	})
	if full, not, cond := origin.counts(); full != 1 || not < 1 || cond != `"v1"|`+lastModified {
		t.Errorf("after expiry: %d full, %d not modified, last conditions %q", full, not, cond)
	}
}

// BenchmarkRevalidation: /v1/fetch with fresh: true of a cached page, the
// benchmarks' article, one request at a time over loopback: "refetch"
// from an origin that sends no validators (the page fetched and
// extracted whole each time), "not-modified" from one that answers the
// stored ETag with a 304 (the snapshot renewed); reports the bytes the
// origin sent per request.
func BenchmarkRevalidation(b *testing.B) {
	page := loadtest.Article()
	for _, tc := range []struct {
		name  string
		etags bool
	}{{"refetch", false}, {"not-modified", true}} {
		b.Run(tc.name, func(b *testing.B) {
			var sent atomic.Int64
			origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.etags {
					w.Header().Set("ETag", `"article"`)
					if r.Header.Get("If-None-Match") == `"article"` {
						w.WriteHeader(http.StatusNotModified)
						return
					}
				}
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				n, _ := w.Write(page)
				sent.Add(int64(n))
			}))
			b.Cleanup(origin.Close)
			srv := newTestServer(b, origin, testOptions{}, `stage "cache" {}`)
			body, _ := json.Marshal(map[string]any{"url": origin.URL + "/article", "fresh": true})
			client := &http.Client{}
			loadtest.Post(b, client, srv.URL+"/v1/fetch", testKey, body) // the first, whole
			sent.Store(0)
			b.ResetTimer()
			for range b.N {
				loadtest.Post(b, client, srv.URL+"/v1/fetch", testKey, body)
			}
			b.ReportMetric(float64(sent.Load())/float64(b.N), "origin-bytes/op")
		})
	}
}
