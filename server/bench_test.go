package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/loadtest"
)

// BenchmarkCacheHit: /v1/fetch answered from the cache, from 8 concurrent
// clients over loopback, for a short page and for the article of
// BenchmarkThroughput (cmd/sift); reports requests/s, the p99 latency, and the CPU
// time of the process (sift and its clients) a hit costs.
func BenchmarkCacheHit(b *testing.B) {
	b.Run("short", func(b *testing.B) {
		origin := fixtureOrigin(b)
		benchCacheHits(b, origin, "/v1/fetch", map[string]any{"url": origin.URL + "/article"})
	})
	b.Run("article", func(b *testing.B) {
		origin, hosts := loadtest.Serve(b, loadtest.Article(), 8)
		benchCacheHits(b, origin, "/v1/fetch", map[string]any{"url": hosts[0] + "/article"})
	})
	b.Run("article-v2scrape", func(b *testing.B) {
		origin, hosts := loadtest.Serve(b, loadtest.Article(), 8)
		benchCacheHits(b, origin, "/v2/scrape", map[string]any{"url": hosts[0] + "/article", "formats": []string{"markdown", "links"}})
	})
}

func benchCacheHits(b *testing.B, origin *httptest.Server, path string, request map[string]any) {
	srv := newTestServer(b, origin, testOptions{Global: 64, PerHost: 64}, `stage "cache" {}`)
	body, _ := json.Marshal(request)
	url := srv.URL + path
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	loadtest.Post(b, client, url, testKey, body) // prime the cache
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(4) // 4 × GOMAXPROCS clients
	b.ResetTimer()
	start, cpu := time.Now(), loadtest.CPUTime(b)
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			loadtest.Post(b, client, url, testKey, body)
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	elapsed, used := time.Since(start), loadtest.CPUTime(b)-cpu
	slices.Sort(lat)
	b.ReportMetric(float64(used.Microseconds())/float64(len(lat)), "cpu_µs/hit")
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99_ms")
}

// BenchmarkCleanFetchOverhead compares a clean /v1/fetch (guard, fetch,
// extract; no cache) with a plain net/http GET of the same loopback page.
func BenchmarkCleanFetchOverhead(b *testing.B) {
	origin := fixtureOrigin(b)
	srv := newTestServer(b, origin, testOptions{})
	page := origin.URL + "/article"
	b.Run("rawGET", func(b *testing.B) {
		for b.Loop() {
			resp, err := http.Get(page)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	})
	body, _ := json.Marshal(map[string]any{"url": page})
	b.Run("siftClean", func(b *testing.B) {
		for b.Loop() {
			loadtest.Post(b, http.DefaultClient, srv.URL+"/v1/fetch", testKey, body)
		}
	})
}

// BenchmarkBatchOverhead: 32 loopback pages fetched one after another with
// /v1/fetch, against the same 32 as one batch job (submit, long-poll until
// done). It reports both per target and the runner's overhead per target:
// claiming, storing the result, and the polls.
func BenchmarkBatchOverhead(b *testing.B) {
	origin := fixtureOrigin(b)
	srv := batchServer(b, origin, batchLimits32)
	const n = 32
	var direct, batched time.Duration
	round := 0
	for b.Loop() {
		round++
		targets := make([]map[string]any, n)
		start := time.Now()
		for i := range n {
			targets[i] = map[string]any{"url": fmt.Sprintf("%s/article?r=%d&i=%d", origin.URL, round, i)}
			body, _ := json.Marshal(map[string]any{"url": fmt.Sprintf("%s/article?direct=%d&i=%d", origin.URL, round, i)})
			loadtest.Post(b, http.DefaultClient, srv.URL+"/v1/fetch", testKey, body)
		}
		direct += time.Since(start)

		start = time.Now()
		body, _ := json.Marshal(map[string]any{"targets": targets})
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/batch", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+testKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var sub struct {
			JobID string `json:"job_id"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&sub)
		resp.Body.Close()
		for status := ""; status != "done"; {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/batch/"+sub.JobID+"?wait=10s", nil)
			req.Header.Set("Authorization", "Bearer "+testKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			var job struct {
				Status string `json:"status"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&job)
			resp.Body.Close()
			status = job.Status
			if status == "failed" || status == "partial" {
				b.Fatalf("job %s", status)
			}
		}
		batched += time.Since(start)
	}
	perDirect := float64(direct.Microseconds()) / float64(round*n) / 1000
	perBatch := float64(batched.Microseconds()) / float64(round*n) / 1000
	b.ReportMetric(perDirect, "direct_ms/target")
	b.ReportMetric(perBatch, "batch_ms/target")
	b.ReportMetric(perBatch-perDirect, "overhead_ms/target")
}
