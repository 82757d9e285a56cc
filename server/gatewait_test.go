package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// overlapOrigin serves a page per path after a short pause, and records
// the most requests it ever had in flight at once.
type overlapOrigin struct {
	*httptest.Server
	now, most atomic.Int32
}

func newOverlapOrigin(t *testing.T, pause time.Duration) *overlapOrigin {
	o := &overlapOrigin{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := o.now.Add(1)
		defer o.now.Add(-1)
		for m := o.most.Load(); n > m && !o.most.CompareAndSwap(m, n); m = o.most.Load() {
		}
		time.Sleep(pause)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body><main><h1>Page %s</h1><p>Words about %s.</p></main></body></html>", r.URL.Path, r.URL.Path)
	}))
	t.Cleanup(o.Close)
	return o
}

// TestParallelScrapesOfOneHostWait: an agent's parallel tool calls, eight
// scrapes of eight pages of one host, all succeed: the per-host gate makes
// them wait in line rather than answering 429, and the origin still never
// sees two of that caller's fetches at once.
func TestParallelScrapesOfOneHostWait(t *testing.T) {
	t.Parallel()
	origin := newOverlapOrigin(t, 150*time.Millisecond)
	srv := newTestServer(t, origin.Server, testOptions{})
	const n = 8
	start := time.Now()
	statuses, bodies := make([]int, n), make([]map[string]any, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			resp, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": fmt.Sprintf("%s/p%d", origin.URL, i)})
			statuses[i], bodies[i] = resp.StatusCode, out
		})
	}
	wg.Wait()
	t.Logf("%d parallel scrapes of one host by one caller answered in %v", n, time.Since(start).Round(time.Millisecond))
	for i := range n {
		data, _ := bodies[i]["data"].(map[string]any)
		md, _ := data["markdown"].(string)
		if statuses[i] != 200 || !strings.Contains(md, fmt.Sprintf("Words about /p%d.", i)) {
			t.Errorf("scrape %d: %d %v", i, statuses[i], bodies[i])
		}
	}
	if most := origin.most.Load(); most != 1 {
		t.Errorf("the origin saw %d of one caller's fetches at once, want 1", most)
	}
}

// TestGateQueueBound: past the line's bound a request is refused at once
// with 429 and Retry-After, while those in line are still served.
func TestGateQueueBound(t *testing.T) {
	t.Parallel()
	origin := newBlockingOrigin(t)
	api := newTestAPI(t, origin.Server, testOptions{GateConfig: &config.Gates{Wait: config.DefaultGateWait, Queue: 1}})
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	first := make(chan int, 1)
	go func() {
		resp, _ := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/hold/a"})
		first <- resp.StatusCode
	}()
	<-origin.entered
	second := make(chan int, 1)
	go func() {
		resp, _ := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/b"})
		second <- resp.StatusCode
	}()
	host := service.HostOf(origin.URL)
	testwait.Until(testwait.Deadline, func() bool { return api.svc.(*service.Service).Gates().Waiting("agent", host) == 1 })
	resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/c"})
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || body["hint"] != "retry_after" {
		t.Fatalf("a request past the line's bound: %d %v", resp.StatusCode, body)
	}
	if got := origin.hitsOf("/c"); got != 0 {
		t.Errorf("the refused request reached the origin %d times", got)
	}
	close(origin.release)
	if s1, s2 := <-first, <-second; s1 != 200 || s2 != 200 {
		t.Errorf("the running fetch ended %d, the one in line %d; want 200 and 200", s1, s2)
	}
}

// TestGateWaitBound: a request that waits in line longer than the gates'
// wait is answered 429 with Retry-After, and its wait is measured.
func TestGateWaitBound(t *testing.T) {
	t.Parallel()
	origin := newBlockingOrigin(t)
	api := newTestAPI(t, origin.Server, testOptions{GateConfig: &config.Gates{Wait: 200 * time.Millisecond, Queue: config.DefaultGateQueue}})
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()
	defer close(origin.release)
	go func() { _, _ = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/hold/a"}) }()
	<-origin.entered
	start := time.Now()
	resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/b"})
	waited := time.Since(start)
	msg, _ := body["error"].(string)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.HasPrefix(msg, "busy: waited 200ms") {
		t.Fatalf("a wait past the bound: %d %v", resp.StatusCode, body)
	}
	if waited < 200*time.Millisecond {
		t.Errorf("refused after %v, before the wait's bound", waited)
	}
	mresp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer mresp.Body.Close()
	text, _ := io.ReadAll(mresp.Body)
	if !strings.Contains(string(text), `sift_gate_wait_seconds_count{outcome="refused"} 1`) {
		t.Errorf("no refused wait in the metrics:\n%s", grepLines(string(text), "sift_gate_wait"))
	}
}

// TestGateSendsHopelessAwayAtOnce: eight parallel scrapes of one host by
// one caller, each page taking a second, under a wait of 3.3 s: once the
// first fetch has shown how long the host holds a slot, the requests whose
// turn would clearly come after their wait are answered 429 at once, with
// a Retry-After of the wait they were spared, instead of after the whole
// wait; the others are served, and the origin never sees two at once.
func TestGateSendsHopelessAwayAtOnce(t *testing.T) {
	t.Parallel()
	const pause, wait = time.Second, 3300 * time.Millisecond
	origin := newOverlapOrigin(t, pause)
	srv := newTestServer(t, origin.Server, testOptions{GateConfig: &config.Gates{Wait: wait, Queue: config.DefaultGateQueue}})
	const n = 8
	type answer struct {
		status     int
		retryAfter string
		msg        string
		took       time.Duration
	}
	answers := make([]answer, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			start := time.Now()
			resp, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": fmt.Sprintf("%s/p%d", origin.URL, i)})
			msg, _ := out["error"].(string)
			answers[i] = answer{resp.StatusCode, resp.Header.Get("Retry-After"), msg, time.Since(start)}
		})
	}
	wg.Wait()
	served, early := 0, 0
	for i, a := range answers {
		t.Logf("scrape %d: %d after %v, Retry-After %q %s", i, a.status, a.took.Round(time.Millisecond), a.retryAfter, a.msg)
		switch a.status {
		case http.StatusOK:
			served++
		case http.StatusTooManyRequests:
			if a.retryAfter == "" {
				t.Errorf("scrape %d: 429 without Retry-After", i)
			}
			if a.took < wait-500*time.Millisecond {
				early++
				if ra, _ := strconv.Atoi(a.retryAfter); ra < 2 || !strings.Contains(a.msg, "would take about") {
					t.Errorf("scrape %d sent away with Retry-After %q: %s", i, a.retryAfter, a.msg)
				}
			}
		default:
			t.Errorf("scrape %d: %d %s", i, a.status, a.msg)
		}
	}
	if served < 3 || early < 3 {
		t.Errorf("%d served and %d sent away before the wait ended; want at least 3 of each", served, early)
	}
	if most := origin.most.Load(); most != 1 {
		t.Errorf("the origin saw %d of one caller's fetches at once, want 1", most)
	}
}
