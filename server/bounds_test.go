package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/testkit/loadtest"
)

// boundsOrigin serves a page of lines of "a" (size bytes), and a JSON
// document.
func boundsOrigin(t *testing.T, size int) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	page := strings.Repeat(strings.Repeat("a", 3999)+"\n", size/4000)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/data.json" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"x": "abc", "items": [1, 2, 3]}`)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(origin.Close)
	return origin, &hits
}

// hostileGrep are patterns whose matching costs far more than their
// length: nested and counted repeats, and one merely too long.
var hostileGrep = []string{
	strings.Repeat(`(?:a?){1000}`, 20) + "b",
	`(?:a?){1000}b`,
	`(?:(?:a?){30}){30}b`,
	`(?:a|b|c|d){300}x`,
	`(?:\w+\s*){200}z`,
	`(?i)(?:[a-z0-9]{1,50}){20}q`,
	`((((a*)*)*)*){100}b`,
	`(?:.{0,100}){10}b`,
	`[\p{L}\p{N}]{500}`,
	strings.Repeat("a|", 200) + "b",
}

// hostileJQ are programs that build a huge value in a step or two.
var hostileJQ = []string{
	`"a" * 1e9`,
	`1e9 * "a"`,
	`"abc" * 4e8`,
	`.x = ("a" * 1e9)`,
	`.x *= 1e9`,
	`reduce range(40) as $i ("a"; . + .)`,
	`reduce range(40) as $i ([1]; . + .)`,
	`.x += ("a" * 2e6)`,
	strings.Repeat(".", 5000),
	`tostring * 1e9`,
}

// TestHostileGrepAndJQAreBounded: ten hostile grep patterns and ten
// hostile jq programs from one caller each end with a clear error, the
// patterns before any fetch, and all twenty cost under 2 CPU-seconds.
func TestHostileGrepAndJQAreBounded(t *testing.T) {
	origin, hits := boundsOrigin(t, 40<<10)
	srv := newTestServer(t, origin, testOptions{})
	start := loadtest.CPUTime(t)
	for _, pattern := range hostileGrep {
		resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/page", "grep": pattern})
		msg, _ := body["error"].(string)
		if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(msg, "invalid: grep: ") ||
			!strings.Contains(msg, "over the limit") {
			t.Errorf("grep %.40s: %d %v", pattern, resp.StatusCode, body)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("hostile patterns fetched the page %d times; they are refused before any fetch", n)
	}
	for _, program := range hostileJQ {
		resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/data.json", "jq": program})
		msg, _ := body["error"].(string)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(msg, "invalid: jq: ") {
			t.Errorf("jq %.40s: %d %v", program, resp.StatusCode, body)
		}
	}
	if spent := loadtest.CPUTime(t) - start; spent > 2*time.Second {
		t.Errorf("twenty hostile requests cost %s of CPU, want under 2s", spent)
	}
}

// TestGrepDeadlineAndGate: a pattern within the caps that is slow on a
// large page ends at the grep deadline with a clear error, holds the
// caller's slot for the host while it runs (a second request is busy),
// and stops working when its client leaves.
func TestGrepDeadlineAndGate(t *testing.T) {
	origin, hits := boundsOrigin(t, 1<<20)
	slow := map[string]any{"url": origin.URL + "/page", "grep": `(?:a?){100}b`}

	// A deadline far below the pattern's cost on this page, however fast
	// the machine: what happens at the deadline.
	hasty := newTestServer(t, origin, testOptions{grepTimeout: 50 * time.Millisecond})
	resp, body := post(t, hasty.URL+"/v1/fetch", testKey, slow)
	if want := "invalid: grep ran past 50ms on this page; narrow the pattern"; resp.StatusCode != http.StatusUnprocessableEntity || body["error"] != want {
		t.Errorf("slow grep: %d %v, want 422 %s", resp.StatusCode, body["error"], want)
	}

	// A deadline far above it: the slot is held while the grep runs (it
	// takes seconds on this page), and only the client leaving stops it.
	// With no line allowed, a second request shows the slot held.
	srv := newTestServer(t, origin, testOptions{grepTimeout: time.Minute, GateConfig: &config.Gates{Wait: config.DefaultGateWait}})
	done := make(chan struct{})
	go func() {
		defer close(done)
		post(t, srv.URL+"/v1/fetch", testKey, slow)
	}()
	waitFor(t, func() bool { return hits.Load() == 2 })
	time.Sleep(100 * time.Millisecond) // let the grep start
	resp, body = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/other"})
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a second request while the grep runs: %d %v, want 429", resp.StatusCode, body)
	}
	<-done

	// A client that leaves stops the work.
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/v1/fetch",
		strings.NewReader(`{"url": "`+origin.URL+`/page", "grep": "(?:a?){100}b"}`))
	req.Header.Set("Authorization", "Bearer "+testKey)
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	waitFor(t, func() bool { return hits.Load() == 3 })
	time.Sleep(200 * time.Millisecond)
	cancel()
	<-gone
	time.Sleep(200 * time.Millisecond)
	before := loadtest.CPUTime(t)
	time.Sleep(time.Second)
	if spent := loadtest.CPUTime(t) - before; spent > 300*time.Millisecond {
		t.Errorf("after the client left, sift still spent %s of CPU in a second", spent)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30s")
		}
	}
}
