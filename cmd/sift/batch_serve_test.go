package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testwait"
)

// countingOrigin serves fixture pages, counting requests per path; /held
// answers only when the test ends.
type countingOrigin struct {
	*httptest.Server
	mu    sync.Mutex
	hits  map[string]int
	delay time.Duration // every answer takes this long, like a real network
}

func newCountingOrigin(t testing.TB, delay time.Duration) *countingOrigin {
	t.Helper()
	o := &countingOrigin{hits: map[string]int{}, delay: delay}
	release := make(chan struct{})
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.hits[r.URL.Path]++
		o.mu.Unlock()
		if r.URL.Path == "/held" {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		if o.delay > 0 {
			time.Sleep(o.delay)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><head><title>%s</title></head><body><article><h1>%s</h1>%s</article></body></html>",
			r.URL.Path, r.URL.Path, strings.Repeat("<p>Batch fixture text, served on loopback only.</p>", 8))
	}))
	t.Cleanup(o.Close)
	t.Cleanup(func() { close(release) })
	return o
}

func (o *countingOrigin) Hits() map[string]int {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := map[string]int{}
	for k, v := range o.hits {
		out[k] = v
	}
	return out
}

// batchSift writes a config with callers a, b and c (keys "key-a" …) and
// a data_dir that outlives restarts, and returns a function that starts
// `sift serve` on it.
func batchSift(t *testing.T, origin *httptest.Server) (addr string, start func() *served) {
	t.Helper()
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr = fmt.Sprintf("127.0.0.1:%d", freePort(t))
	dir := t.TempDir()
	var callers strings.Builder
	for _, name := range []string{"a", "b", "c"} {
		sum := sha256.Sum256([]byte("key-" + name))
		fmt.Fprintf(&callers, "caller %q {\n  key_sha256 = %q\n}\n", name, hex.EncodeToString(sum[:]))
	}
	src := fmt.Sprintf(`listen   = %q
data_dir = %q
%s
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {}
  stage "extract" {}
}
`, addr, dir, callers.String(), port)
	cfg := filepath.Join(dir, "config.hcl")
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return addr, func() *served {
		return startSift(t, cfg, addr)
	}
}

func batchCall(t testing.TB, method, url, key, body string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil || resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, raw)
	}
	return out
}

// TestBatchSurvivesSIGKILL: sift serve is killed with one job done, one
// running and one queued; after a restart the target that was running is
// failed with "restart", every pending target runs, so the running job
// ends partial and the queued one done; the done job's result is still
// readable, and no target was fetched twice.
func TestBatchSurvivesSIGKILL(t *testing.T) {
	origin := newCountingOrigin(t, 0)
	addr, start := batchSift(t, origin.Server)
	serve := start()
	base := "http://" + addr + "/v1/batch"
	submit := func(key string, paths ...string) string {
		var ts []string
		for _, p := range paths {
			ts = append(ts, fmt.Sprintf(`{"url": %q}`, origin.URL+p))
		}
		return batchCall(t, "POST", base, key, `{"targets": [`+strings.Join(ts, ",")+`]}`)["job_id"].(string)
	}

	done := submit("key-a", "/done")
	waitJob(t, base, "key-a", done, "done")
	running := submit("key-b", "/held", "/after-held")
	testwait.For(t, "the held target to start", func() bool { return origin.Hits()["/held"] > 0 })
	queued := submit("key-c", "/queued")
	if job := batchCall(t, "GET", base+"/"+queued, "key-c", ""); job["status"] != "queued" {
		t.Fatalf("third job %v, want queued behind the running one", job["status"])
	}
	if err := serve.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = serve.Wait()

	start()
	waitJob(t, base, "key-b", running, "partial")
	waitJob(t, base, "key-c", queued, "done")
	if held := batchCall(t, "GET", base+"/"+running+"/0", "key-b", ""); held["status"] != "failed" || held["error"] != "restart" {
		t.Errorf("the target running at the kill: %v, want failed: restart", held)
	}
	one := batchCall(t, "GET", base+"/"+done+"/0", "key-a", "")
	if one["status"] != "done" || !strings.Contains(one["result"].(map[string]any)["content"].(string), "Batch fixture text") {
		t.Fatalf("the done job's result after restart: %v", one)
	}
	hits := origin.Hits()
	if hits["/done"] != 1 || hits["/held"] != 1 || hits["/after-held"] != 1 || hits["/queued"] != 1 {
		t.Fatalf("origin hits %v: want each target fetched once", hits)
	}
}

// waitJob waits until the job's status is one of want, and returns it.
func waitJob(t *testing.T, base, key, id string, want ...string) map[string]any {
	t.Helper()
	var job map[string]any
	testwait.For(t, fmt.Sprintf("job %s to become %v", id, want), func() bool {
		job = batchCall(t, "GET", base+"/"+id+"?wait=2s", key, "")
		return slices.Contains(want, fmt.Sprint(job["status"]))
	})
	return job
}

// TestBatchSurvivesSIGTERM: a deploy's clean stop with 4 of 10 targets
// done leaves the pending ones pending; the next sift on the same
// data_dir runs them, and the job ends done (or partial, if the target in
// flight at the stop failed), never failed.
func TestBatchSurvivesSIGTERM(t *testing.T) {
	origin := newCountingOrigin(t, 100*time.Millisecond)
	addr, start := batchSift(t, origin.Server)
	serve := start()
	base := "http://" + addr + "/v1/batch"
	var ts []string
	for i := range 10 {
		ts = append(ts, fmt.Sprintf(`{"url": "%s/t%d"}`, origin.URL, i))
	}
	id := batchCall(t, "POST", base, "key-a", `{"targets": [`+strings.Join(ts, ",")+`]}`)["job_id"].(string)
	testwait.For(t, "4 targets to finish", func() bool {
		n, _ := batchCall(t, "GET", base+"/"+id, "key-a", "")["targets_done"].(float64)
		return n >= 4
	})
	if err := serve.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := serve.Wait(); err != nil {
		t.Fatalf("sift after SIGTERM: %v\n%s", err, serve.Logs.String())
	}
	start()
	job := waitJob(t, base, "key-a", id, "done", "partial", "failed")
	failed := 0
	for i := range 10 {
		tg := batchCall(t, "GET", fmt.Sprintf("%s/%s/%d", base, id, i), "key-a", "")
		if tg["status"] != "done" {
			failed++
			t.Logf("target %d: %v %v", i, tg["status"], tg["error"])
		}
	}
	t.Logf("after SIGTERM and a restart: job %v, %d of 10 targets failed; origin hits %v", job["status"], failed, origin.Hits())
	if job["status"] == "failed" || failed > 1 {
		t.Fatalf("job %v with %d targets failed: the pending ones did not survive the restart", job["status"], failed)
	}
	for i := range 10 {
		if n := origin.Hits()[fmt.Sprintf("/t%d", i)]; n != 1 {
			t.Errorf("/t%d fetched %d times", i, n)
		}
	}
}

// TestBatchCLI: submit a list of URLs from stdin, wait with progress, read
// one result and cancel a finished job.
func TestBatchCLI(t *testing.T) {
	origin := newCountingOrigin(t, 0)
	addr, start := batchSift(t, origin.Server)
	start()
	t.Setenv("SIFT_URL", "http://"+addr)
	t.Setenv("SIFT_KEY", "key-a")
	list := fmt.Sprintf("# two pages\n%s/one\n%s/two\n", origin.URL, origin.URL)
	stdout, stderr, code := runSift(t, []byte(list), "batch", "submit", "--wait", "-")
	var job struct {
		JobID   string `json:"job_id"`
		Status  string `json:"status"`
		Targets []struct {
			Status string `json:"status"`
		} `json:"targets"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &job) != nil || job.Status != "done" || len(job.Targets) != 2 {
		t.Fatalf("submit --wait: code %d\n%s\n%s", code, stdout, stderr)
	}
	// Not a terminal: plain lines, the last one the end.
	if !strings.HasSuffix(stderr, "2/2 done\n") || strings.Contains(stderr, "\r") {
		t.Fatalf("progress on a pipe: %q", stderr)
	}
	stdout, _, code = runSift(t, nil, "batch", "get", job.JobID, "1")
	if code != 0 || !strings.Contains(stdout, "/two") || !strings.Contains(stdout, `"status": "done"`) {
		t.Fatalf("get: %d %s", code, stdout)
	}
	stdout, _, code = runSift(t, nil, "batch", "status", "--results", job.JobID)
	var full struct {
		Targets []struct {
			Result json.RawMessage `json:"result"`
		} `json:"targets"`
		Next *string `json:"next"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &full) != nil || len(full.Targets) != 2 || full.Targets[1].Result == nil || full.Next != nil {
		t.Fatalf("status --results: %d %s", code, stdout)
	}
	_, stderr, code = runSift(t, nil, "batch", "cancel", job.JobID)
	if code == 0 || !strings.Contains(stderr, "already finished") {
		t.Fatalf("cancel of a done job: %d %s", code, stderr)
	}
	_, stderr, code = runSift(t, nil, "batch", "status", "0123456789abcdef0123456789abcdef")
	if code == 0 || !strings.Contains(stderr, "no such batch job") {
		t.Fatalf("status of no job: %d %s", code, stderr)
	}
}
