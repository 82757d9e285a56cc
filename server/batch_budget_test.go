package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/store"
)

// bigOrigin serves /big/N: a plain-text page of size bytes, different for
// every N.
func bigOrigin(t testing.TB, size int) *httptest.Server {
	t.Helper()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/big/") {
			http.NotFound(w, r)
			return
		}
		line := fmt.Sprintf("Page %s: water the beds early in the morning so the roots drink before the sun.\n", r.URL.Path)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, strings.Repeat(line, size/len(line)+1)[:size])
	}))
	t.Cleanup(origin.Close)
	return origin
}

// bigBatch submits n big pages as Firecrawl's batch with three formats,
// the shape of the attack, and waits for the job to finish.
func bigBatch(t *testing.T, base, origin string, n int) string {
	t.Helper()
	urls := make([]string, n)
	for i := range urls {
		urls[i] = fmt.Sprintf("%s/big/%d", origin, i)
	}
	resp, start := post(t, base+"/v2/batch/scrape", testKey, map[string]any{"urls": urls, "formats": []string{"html", "rawHtml", "markdown"}})
	id, _ := start["id"].(string)
	if resp.StatusCode != 200 || id == "" {
		t.Fatalf("start %d %v", resp.StatusCode, start)
	}
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		_, body := do(t, "GET", base+"/v1/batch/"+id+"?wait=10s", testKey, nil)
		if s := body["status"]; s != "queued" && s != "running" {
			return id
		}
	}
	t.Fatalf("job %s did not finish", id)
	return ""
}

// diskBytes is the size of the SQLite database under dir with its WAL.
func diskBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	for _, name := range []string{store.FileName, store.FileName + "-wal"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// TestBatchAttackStaysInBudget: the attack of one caller, 32 big pages in
// three formats, stores only what fits its share: the rest fail
// too_large, the database stays under max_bytes plus one result, and
// another caller's finished job is still there after a restart.
func TestBatchAttackStaysInBudget(t *testing.T) {
	t.Parallel()
	const page = 100 << 10
	limits := batch.Limits{MaxBytes: 2 << 20, CallerBytes: 1 << 20, ResultBytes: 512 << 10}
	origin := bigOrigin(t, page)
	dir := t.TempDir()
	st, err := store.OpenSQLite(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	api, srv := batchAPI(t, origin, st, limits, 0)

	// The other caller's job, finished before the attack.
	_, sub := post(t, srv.URL+"/v1/batch", quietKey, targetsOf(origin.URL+"/big/victim"))
	victim := sub["job_id"].(string)
	if done := collect(t, srv.URL, quietKey, victim, ""); done["status"] != "done" {
		t.Fatalf("the other caller's job: %v", done)
	}

	id := bigBatch(t, srv.URL, origin.URL, 32)
	_, errs := do(t, "GET", srv.URL+"/v2/batch/scrape/"+id+"/errors", testKey, nil)
	list := errs["errors"].([]any)
	if len(list) < 28 || !strings.HasPrefix(list[0].(map[string]any)["error"].(string), "too_large: the result (") {
		t.Fatalf("%d errors: %v", len(list), errs)
	}
	ctx := context.Background()
	if eve, _ := st.CallerBytes(ctx, "agent"); eve > limits.CallerBytes {
		t.Fatalf("the caller stored %d bytes, over its share %d", eve, limits.CallerBytes)
	}

	// Restart: a new runner over the same store, which sweeps on start.
	// Closed, the database has folded its write-ahead log in.
	closeCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := api.batch.Close(closeCtx); err != nil {
		t.Fatal(err)
	}
	st.Close()
	got := diskBytes(t, dir)
	t.Logf("database %d KiB on disk after the attack", got>>10)
	if got > limits.MaxBytes+limits.ResultBytes {
		t.Fatalf("database %d bytes on disk, over max_bytes plus one result (%d)", got, limits.MaxBytes+limits.ResultBytes)
	}
	if st, err = store.OpenSQLite(ctx, dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	_, srv = batchAPI(t, origin, st, limits, 0)
	resp, body := do(t, "GET", srv.URL+"/v1/batch/"+victim+"?results=1", quietKey, nil)
	targets, _ := body["targets"].([]any)
	if resp.StatusCode != 200 || len(targets) != 1 || targets[0].(map[string]any)["result"] == nil {
		t.Fatalf("the other caller's job after the restart: %d %v", resp.StatusCode, body)
	}
}

// TestBatchConcurrentFullReads: three readers walking every page of a
// big job at once (two through /v1, one through Firecrawl's status) raise
// the heap by a bound proportional to the page, not to the job; every
// document is read once, and `next` always moves on.
func TestBatchConcurrentFullReads(t *testing.T) {
	const (
		pageBytes = 1 << 20
		size      = 150 << 10
		n         = 32
	)
	limits := batch.Limits{MaxBytes: 64 << 20, CallerBytes: 64 << 20, ResultBytes: 1 << 20}
	origin := bigOrigin(t, size)
	st, err := store.OpenSQLite(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	_, srv := batchAPI(t, origin, st, limits, pageBytes)
	id := bigBatch(t, srv.URL, origin.URL, n)
	stored, _ := st.BatchBytes(context.Background())
	if stored < 3*size*n {
		t.Fatalf("stored %d bytes: not the job this test needs", stored)
	}

	// A low GC target keeps garbage from hiding what the reads hold.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	base := heapAlloc()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	counts := make([]int, 3)
	for r := range counts {
		first := srv.URL + "/v1/batch/" + id + "?results=1"
		if r == 2 {
			first = srv.URL + "/v2/batch/scrape/" + id
		}
		wg.Go(func() { counts[r] = readAllPages(t, srv.URL, first, pageBytes+int(limits.ResultBytes)) })
	}
	wg.Wait()
	close(stop)
	<-sampled
	for r, c := range counts {
		if c != n {
			t.Errorf("reader %d read %d documents, want %d", r, c, n)
		}
	}
	grown := int64(peak.Load()) - int64(base)
	t.Logf("job %d MiB stored; heap peak +%d MiB over three full reads", stored>>20, grown>>20)
	if bound := int64(3*12*pageBytes + 16<<20); grown > bound {
		t.Fatalf("heap grew %d MiB reading, over %d MiB", grown>>20, bound>>20)
	}
}

// readAllPages follows `next` from first and counts the documents (done
// targets' results); every page must stay under max bytes and move on.
func readAllPages(t *testing.T, base, first string, max int) int {
	seen := 0
	for next, pages := first, 0; next != ""; pages++ {
		if pages > 100 {
			t.Errorf("more than 100 pages: next does not move on")
			return seen
		}
		if strings.HasPrefix(next, "/") {
			next = base + next
		}
		req, _ := http.NewRequest(http.MethodGet, next, nil)
		req.Header.Set("Authorization", "Bearer "+testKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return seen
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var page struct {
			Next    string
			Data    []json.RawMessage
			Targets []struct {
				Result json.RawMessage
			}
		}
		if err := json.Unmarshal(raw, &page); err != nil || resp.StatusCode != 200 || len(raw) > max+64<<10 {
			t.Errorf("%s: %d, %d bytes, %v", next, resp.StatusCode, len(raw), err)
			return seen
		}
		seen += len(page.Data)
		for _, tg := range page.Targets {
			if tg.Result != nil {
				seen++
			}
		}
		if page.Next == next {
			t.Errorf("next %s is this page", next)
			return seen
		}
		next = page.Next
	}
	return seen
}

// TestBatchResultsPages: `?results=1` answers a page of targets with their
// results, at most PageBytes of them (one target whatever its size), and
// `next` reads on from the target after it; the summary has no results.
func TestBatchResultsPages(t *testing.T) {
	t.Parallel()
	origin := bigOrigin(t, 10<<10)
	_, srv := batchAPI(t, origin, nil, batch.Limits{}, 15<<10)
	_, sub := post(t, srv.URL+"/v1/batch", testKey, targetsOf(origin.URL+"/big/0", origin.URL+"/big/1", origin.URL+"/big/2"))
	id := sub["job_id"].(string)
	summary := collect(t, srv.URL, testKey, id, "")
	for _, tg := range summary["targets"].([]any) {
		if tg.(map[string]any)["result"] != nil {
			t.Fatalf("a summary with results: %v", summary)
		}
	}
	var idxs []string
	next := "/v1/batch/" + id + "?results=1"
	for pages := 0; next != ""; pages++ {
		if pages > 3 {
			t.Fatalf("pages do not end: %v", idxs)
		}
		_, body := do(t, "GET", srv.URL+next, testKey, nil)
		targets := body["targets"].([]any)
		if len(targets) != 1 || targets[0].(map[string]any)["result"] == nil {
			t.Fatalf("%s: %v", next, body)
		}
		idxs = append(idxs, fmt.Sprint(targets[0].(map[string]any)["idx"]))
		next, _ = body["next"].(string)
	}
	if got := strings.Join(idxs, " "); got != "0 1 2" {
		t.Fatalf("pages of targets %s", got)
	}
	if resp, _ := do(t, "GET", srv.URL+"/v1/batch/"+id+"?results=1&from=-1", testKey, nil); resp.StatusCode != 400 {
		t.Fatalf("from=-1: %d", resp.StatusCode)
	}
}
