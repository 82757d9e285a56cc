package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// concurrentOrigin serves fixture pages, each after delay, and records how
// many requests it answered at once, in all and per job (the first path
// segment).
type concurrentOrigin struct {
	*httptest.Server
	mu               sync.Mutex
	now, max         int
	perJob, maxOfJob map[string]int
	hits             map[string]int
}

func newConcurrentOrigin(t testing.TB, delay time.Duration) *concurrentOrigin {
	t.Helper()
	o := &concurrentOrigin{perJob: map[string]int{}, maxOfJob: map[string]int{}, hits: map[string]int{}}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		job, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		o.mu.Lock()
		o.hits[r.URL.Path]++
		o.now++
		o.max = max(o.max, o.now)
		o.perJob[job]++
		o.maxOfJob[job] = max(o.maxOfJob[job], o.perJob[job])
		o.mu.Unlock()
		defer func() {
			o.mu.Lock()
			o.now--
			o.perJob[job]--
			o.mu.Unlock()
		}()
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><head><title>%s</title></head><body><article><h1>%s</h1>%s</article></body></html>",
			r.URL.Path, r.URL.Path, strings.Repeat("<p>Batch fixture text, served on loopback only.</p>", 8))
	}))
	t.Cleanup(o.Close)
	return o
}

// TestBatchJobsDrainInParallelAcrossInstances: six jobs of six callers on
// three instances with two workers each run several targets at once (up
// to workers × instances, six), whichever instance they were submitted
// to, and never two of one job: a job drains serially.
func TestBatchJobsDrainInParallelAcrossInstances(t *testing.T) {
	for _, tc := range []struct {
		name   string
		submit func(j int) int // the instance job j is submitted to
	}{
		{"spread", func(j int) int { return j % 3 }},
		{"all to one", func(int) int { return 0 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			origin := newConcurrentOrigin(t, 150*time.Millisecond)
			c := startCluster(t, origin.Server, 3)
			const jobs, perJob = 6, 6
			ids := make([]string, jobs)
			for j := range jobs {
				var ts []string
				for i := range perJob {
					ts = append(ts, fmt.Sprintf(`{"url": "%s/j%d/t%d"}`, origin.URL, j, i))
				}
				ids[j] = batchCall(t, "POST", "http://"+c.addrs[tc.submit(j)]+"/v1/batch", fmt.Sprintf("key-%d", j), `{"targets": [`+strings.Join(ts, ",")+`]}`)["job_id"].(string)
			}
			start := time.Now()
			for j, id := range ids {
				waitFinished(t, c.addrs[tc.submit(j)], fmt.Sprintf("key-%d", j), id)
			}
			took := time.Since(start)
			origin.mu.Lock()
			defer origin.mu.Unlock()
			t.Logf("%d targets of 150 ms in %s; at most %d at once; per job at most %v", jobs*perJob, took.Round(time.Millisecond), origin.max, origin.maxOfJob)
			for job, n := range origin.maxOfJob {
				if n != 1 {
					t.Errorf("job %s ran %d targets at once; a job drains serially", job, n)
				}
			}
			for path, n := range origin.hits {
				if n != 1 {
					t.Errorf("%s fetched %d times", path, n)
				}
			}
			// Six workers over six jobs: serial would be one at a time.
			if origin.max < 3 {
				t.Errorf("at most %d targets ran at once on 3 instances × 2 workers", origin.max)
			}
		})
	}
}
