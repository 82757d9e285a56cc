package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/internal/testkit/dnstest"
	"github.com/siftd/sift/internal/testkit/testwait"
	"github.com/siftd/sift/store"
)

// heldOrigin is the fixture origin plus /held, which answers only once
// released.
type heldOrigin struct {
	*httptest.Server
	release chan struct{}
}

func newHeldOrigin(t *testing.T) *heldOrigin {
	t.Helper()
	fixture := fixtureOrigin(t)
	h := &heldOrigin{release: make(chan struct{})}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/held" {
			select {
			case <-h.release:
			case <-r.Context().Done():
				return
			}
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "released")
			return
		}
		resp, err := http.Get(fixture.URL + r.URL.Path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(h.Close)
	t.Cleanup(func() {
		select {
		case <-h.release:
		default:
			close(h.release)
		}
	})
	return h
}

func batchServer(t testing.TB, origin *httptest.Server, limits batch.Limits) *httptest.Server {
	t.Helper()
	st, err := store.OpenSQLite(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return newTestServer(t, origin, testOptions{PerHost: 4, testBatch: &testBatch{Store: st, Limits: limits,
		Runner: batch.Options{RetryEvery: 20 * time.Millisecond}}})
}

func targetsOf(urls ...string) map[string]any {
	ts := make([]map[string]any, len(urls))
	for i, u := range urls {
		ts[i] = map[string]any{"url": u}
	}
	return map[string]any{"targets": ts}
}

// collect long-polls the job until it finishes.
func collect(t *testing.T, base, key, id, query string) map[string]any {
	t.Helper()
	var body map[string]any
	testwait.For(t, fmt.Sprintf("job %s to finish", id), func() bool {
		_, body = do(t, "GET", base+"/v1/batch/"+id+"?wait=5s"+query, key, nil)
		s := body["status"]
		return s != "queued" && s != "running"
	})
	return body
}

func TestBatchSubmitAndCollect(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := batchServer(t, origin, batch.Limits{})
	resp, sub := do(t, "POST", srv.URL+"/v1/batch", testKey, map[string]any{"targets": []map[string]any{
		{"url": origin.URL + "/article", "question": "when to water?"},
		{"url": origin.URL + "/image"},
		{"url": origin.URL + "/data.json", "jq": ".items[0].name"},
	}})
	if resp.StatusCode != http.StatusAccepted || sub["status"] != "queued" || sub["targets"] != 3.0 || sub["reused"] != false {
		t.Fatalf("submit %d %v", resp.StatusCode, sub)
	}
	id := sub["job_id"].(string)
	summary := collect(t, srv.URL, testKey, id, "")
	targets := summary["targets"].([]any)
	if summary["status"] != "partial" || summary["targets_done"] != 3.0 || summary["targets_total"] != 3.0 || len(targets) != 3 {
		t.Fatalf("summary %v", summary)
	}
	for i, want := range []string{"done", "failed", "done"} {
		tg := targets[i].(map[string]any)
		if tg["status"] != want || tg["idx"] != float64(i) || tg["result"] != nil {
			t.Fatalf("summary target %d: %v", i, tg)
		}
	}
	if e := targets[1].(map[string]any)["error"].(string); !strings.HasPrefix(e, "unsupported:") {
		t.Fatalf("failed target's error %q", e)
	}

	// One result equals what /v1/fetch answers for the same target.
	_, one := do(t, "GET", srv.URL+"/v1/batch/"+id+"/0", testKey, nil)
	_, direct := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article", "question": "when to water?"})
	result := one["result"].(map[string]any)
	if one["job_id"] != id || one["status"] != "done" || result["content"] != direct["content"] || result["untrusted"] != true ||
		result["source"].(map[string]any)["url"] != origin.URL+"/article" {
		t.Fatalf("target 0 %v", one)
	}
	// An index past the end names the job's targets, not a missing job.
	resp, past := do(t, "GET", srv.URL+"/v1/batch/"+id+"/3", testKey, nil)
	if resp.StatusCode != 404 || past["error"] != "not_found: the batch job has 3 targets, numbered from 0: there is no target 3" {
		t.Fatalf("target 3 of 3: %d %v", resp.StatusCode, past)
	}
	full := collect(t, srv.URL, testKey, id, "&results=1")
	if r := full["targets"].([]any)[2].(map[string]any)["result"].(map[string]any); r["content"] != `"bolt"` {
		t.Fatalf("results=1 target 2: %v", r)
	}

	// The same targets again, while the lease holds: the same job.
	resp, again := do(t, "POST", srv.URL+"/v1/batch", testKey, map[string]any{"targets": []map[string]any{
		{"url": origin.URL + "/article", "question": "when to water?"},
		{"url": origin.URL + "/image"},
		{"url": origin.URL + "/data.json", "jq": ".items[0].name"},
	}})
	if resp.StatusCode != http.StatusAccepted || again["job_id"] != id || again["reused"] != true || again["status"] != "partial" {
		t.Fatalf("resubmit %d %v", resp.StatusCode, again)
	}
}

func TestBatchSubmitRefusals(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := batchServer(t, origin, batch.Limits{})
	many := make([]string, 33)
	for i := range many {
		many[i] = fmt.Sprintf("%s/article?%d", origin.URL, i)
	}
	tests := []struct {
		name   string
		body   any
		status int
		want   string
	}{
		{"malformed", `{"targets": [`, 400, "invalid: malformed JSON: the body ends before the object does"},
		{"unknown field", map[string]any{"targets": []any{map[string]any{"url": origin.URL, "colour": "red"}}}, 400, `invalid: field "colour": no such field`},
		{"wrong type", map[string]any{"targets": []any{map[string]any{"url": 7}}}, 400, `invalid: field "targets.url": want a string, not a number`},
		{"no targets", map[string]any{"targets": []any{}}, 400, "invalid: targets: a batch needs at least one target"},
		{"33 targets", targetsOf(many...), 422, "invalid: 33 targets, at most 32 per job"},
		{"bad mode", map[string]any{"targets": []any{map[string]any{"url": origin.URL}, map[string]any{"url": origin.URL, "mode": "fast"}}}, 400,
			`invalid: targets[1]: mode "fast": want clean, raw or digest`},
		{"private literal", targetsOf(origin.URL+"/article", "http://10.0.0.5/admin"), 422, "blocked: targets[1]: private address 10.0.0.5"},
		{"port", targetsOf("http://example.com:8443/"), 422, "blocked: targets[0]: port 8443"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var resp *http.Response
			var body map[string]any
			if raw, ok := tt.body.(string); ok {
				resp, body = post(t, srv.URL+"/v1/batch", testKey, raw)
			} else {
				resp, body = post(t, srv.URL+"/v1/batch", testKey, tt.body)
			}
			msg, _ := body["error"].(string)
			if resp.StatusCode != tt.status || !strings.HasPrefix(msg, tt.want) || body["success"] != false {
				t.Fatalf("%d %q, want %d %q", resp.StatusCode, msg, tt.status, tt.want)
			}
		})
	}
}

// The batch route takes bodies up to 256 KiB, beyond the 64 KiB of the
// others, and no more.
func TestBatchBodyCap(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := batchServer(t, origin, batch.Limits{})
	question := strings.Repeat("why ", 750) // 3,000 bytes
	var ts []map[string]any
	for i := range 32 {
		ts = append(ts, map[string]any{"url": fmt.Sprintf("%s/article?%d", origin.URL, i), "question": question})
	}
	resp, body := post(t, srv.URL+"/v1/batch", testKey, map[string]any{"targets": ts})
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("a 96 KiB batch: %d %v", resp.StatusCode, body)
	}
	for i := range ts {
		ts[i]["question"] = strings.Repeat("why ", 2200)
	}
	resp, body = post(t, srv.URL+"/v1/batch", testKey, map[string]any{"targets": ts})
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 280 KiB batch: %d %v", resp.StatusCode, body)
	}
	resp, _ = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL, "question": strings.Repeat("why ", 20000)})
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("/v1/fetch took an 80 KiB body: %d", resp.StatusCode)
	}
}

func TestBatchOwnershipCancelAndBusy(t *testing.T) {
	t.Parallel()
	origin := newHeldOrigin(t)
	srv := batchServer(t, origin.Server, batch.Limits{})
	_, sub := post(t, srv.URL+"/v1/batch", testKey, targetsOf(origin.URL+"/held", origin.URL+"/article"))
	id := sub["job_id"].(string)
	for _, probe := range []struct{ method, path string }{
		{"GET", "/v1/batch/" + id}, {"GET", "/v1/batch/" + id + "/0"}, {"DELETE", "/v1/batch/" + id},
	} {
		if resp, body := do(t, probe.method, srv.URL+probe.path, quietKey, nil); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("another caller's %s %s: %d %v", probe.method, probe.path, resp.StatusCode, body)
		}
	}
	if resp, _ := do(t, "GET", srv.URL+"/v1/batch/"+id+"/9", testKey, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("target 9 of 2: %d", resp.StatusCode)
	}
	resp, body := post(t, srv.URL+"/v1/batch", testKey, targetsOf(origin.URL+"/data.json"))
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("second live job: %d %v", resp.StatusCode, body)
	}
	waitTarget(t, srv.URL, id, 0, "running")
	resp, body = do(t, "DELETE", srv.URL+"/v1/batch/"+id, testKey, nil)
	if resp.StatusCode != 200 || body["status"] != "cancelled" {
		t.Fatalf("cancel %d %v", resp.StatusCode, body)
	}
	close(origin.release)
	waitTarget(t, srv.URL, id, 0, "done")
	_, summary := do(t, "GET", srv.URL+"/v1/batch/"+id, testKey, nil)
	if summary["status"] != "cancelled" || summary["targets"].([]any)[1].(map[string]any)["status"] != "pending" {
		t.Fatalf("after cancel %v", summary)
	}
	if resp, body := do(t, "DELETE", srv.URL+"/v1/batch/"+id, testKey, nil); resp.StatusCode != http.StatusConflict ||
		body["error"] != "conflict: the batch job was already cancelled" {
		t.Fatalf("cancel of a cancelled job: %d %v", resp.StatusCode, body)
	}
}

func waitTarget(t *testing.T, base, id string, idx int, status string) {
	t.Helper()
	testwait.For(t, fmt.Sprintf("target %d to become %s", idx, status), func() bool {
		_, body := do(t, "GET", fmt.Sprintf("%s/v1/batch/%s/%d", base, id, idx), testKey, nil)
		return body["status"] == status
	})
}

// TestBatchLongPoll: a waiting GET answers as soon as the job changes,
// not when its wait runs out.
func TestBatchLongPoll(t *testing.T) {
	t.Parallel()
	origin := newHeldOrigin(t)
	srv := batchServer(t, origin.Server, batch.Limits{})
	_, sub := post(t, srv.URL+"/v1/batch", testKey, targetsOf(origin.URL+"/held"))
	id := sub["job_id"].(string)
	waitTarget(t, srv.URL, id, 0, "running")
	answered := make(chan time.Time, 1)
	go func() {
		do(t, "GET", srv.URL+"/v1/batch/"+id+"?wait=30s", testKey, nil)
		answered <- time.Now()
	}()
	time.Sleep(100 * time.Millisecond) // the poll is waiting
	released := time.Now()
	close(origin.release)
	select {
	case at := <-answered:
		t.Logf("long-poll answered %v after the target finished", at.Sub(released))
	case <-time.After(15 * time.Second): // half the wait: not answered by the wait running out
		t.Fatal("the long-poll did not answer when the job changed")
	}
	if resp, body := do(t, "GET", srv.URL+"/v1/batch/"+id+"?wait=31s", testKey, nil); resp.StatusCode != 400 {
		t.Fatalf("wait over 30s: %d %v", resp.StatusCode, body)
	}
}

func TestBatchDisabled(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{testBatch: &testBatch{Disabled: true}})
	for _, m := range []string{"POST /v1/batch", "GET /v1/batch/x", "DELETE /v1/batch/x", "GET /v1/batch/x/0"} {
		method, path, _ := strings.Cut(m, " ")
		resp, body := do(t, method, srv.URL+path, testKey, targetsOf(origin.URL))
		if resp.StatusCode != http.StatusServiceUnavailable || body["error"] != "batch disabled" {
			t.Fatalf("%s: %d %v", m, resp.StatusCode, body)
		}
	}
}

func TestBatchMetricsCarryNoJobID(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := batchServer(t, origin, batch.Limits{})
	_, sub := post(t, srv.URL+"/v1/batch", testKey, targetsOf(origin.URL+"/article"))
	id := sub["job_id"].(string)
	collect(t, srv.URL, testKey, id, "")
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	text := string(page)
	for _, want := range []string{`sift_batch_jobs_total{outcome="created"} 1`, `sift_batch_jobs_total{outcome="done"} 1`,
		`sift_batch_targets_total{outcome="ok"} 1`, `sift_http_requests_total{caller="agent",route="/v1/batch/{id}",status="200"}`} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(text, id) || strings.Contains(text, "/article") {
		t.Error("/metrics carries a job id or a URL")
	}
}

// TestBatchLogsCarryNoURL: the request lines of batch targets name no host
// or URL, for any caller; a direct fetch's line still names its host.
func TestBatchLogsCarryNoURL(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	st, err := store.OpenSQLite(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	var logs lockedBuffer
	srv := newTestServer(t, origin, testOptions{testBatch: &testBatch{Store: st}, Options: Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))}})
	_, sub := post(t, srv.URL+"/v1/batch", testKey, targetsOf(origin.URL+"/article", origin.URL+"/image"))
	collect(t, srv.URL, testKey, sub["job_id"].(string), "")
	host := `"host":"127.0.0.1"`
	if text := logs.String(); strings.Contains(text, host) || strings.Contains(text, "/article") || !strings.Contains(text, `"status":415`) {
		t.Fatalf("batch log lines:\n%s", text)
	}
	post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article"})
	if !strings.Contains(logs.String(), host) {
		t.Fatal("a direct fetch's log line lost its host")
	}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// batchLimits32 are the defaults with room for many jobs of one caller in
// a row.
var batchLimits32 = batch.Limits{TargetsPerJob: 32}

// TestBatchPrivateNameFailsItsTarget: a name that resolves to a private
// address passes the submit pre-check (it resolves nothing) and is refused
// by the guard when its target is fetched; the job goes on and ends
// partial.
func TestBatchPrivateNameFailsItsTarget(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	st, err := store.OpenSQLite(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	srv := newTestServer(t, origin, testOptions{testBatch: &testBatch{Store: st},
		resolver: dnstest.Resolver(t, map[string]string{"intranet.test": "10.0.0.5"})})
	intranet := fmt.Sprintf("http://intranet.test:%d/admin", port)
	resp, sub := post(t, srv.URL+"/v1/batch", testKey, targetsOf(intranet, origin.URL+"/article"))
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("submit: %d %v", resp.StatusCode, sub)
	}
	summary := collect(t, srv.URL, testKey, sub["job_id"].(string), "")
	first := summary["targets"].([]any)[0].(map[string]any)
	if summary["status"] != "partial" || first["status"] != "failed" || first["error"] != "blocked: private address 10.0.0.5 (intranet.test)" {
		t.Fatalf("summary %v", summary)
	}
}
