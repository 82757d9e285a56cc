package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/store"
)

// batchAPI is batchServer's API with its listener, for tests that look at
// the runner behind it.
func batchAPI(t testing.TB, origin *httptest.Server, st *store.Store, limits batch.Limits, page int) (*Server, *httptest.Server) {
	t.Helper()
	if st == nil {
		var err error
		if st, err = store.OpenSQLite(context.Background(), t.TempDir()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = st.Close() })
	}
	srv := httptest.NewUnstartedServer(nil)
	api := newTestAPI(t, origin, testOptions{PerHost: 4, testBatch: &testBatch{Store: st, Limits: limits, PageBytes: page, Runner: batch.Options{RetryEvery: 20 * time.Millisecond}}, Options: Options{PublicURL: "http://" + srv.Listener.Addr().String()}})
	srv.Config.Handler = api.Handler()
	srv.Start()
	t.Cleanup(srv.Close)
	return api, srv
}

func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestBatchUnknownIDsKeepNothing: 2,000 reads of ids that are not the
// caller's, half of them 60 KB long (60 MB of ids, were each kept), are refused at once (400 for an id
// no job can have, 404 for another's) and leave no watcher and no heap
// behind; before, every id asked about stayed in the runner's watchers.
func TestBatchUnknownIDsKeepNothing(t *testing.T) {
	api, srv := batchAPI(t, fixtureOrigin(t), nil, batch.Limits{}, 0)
	mine, other := random(batch.IDLen/2), random(30<<10)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	get := func(path string) int {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+testKey)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		io.Copy(io.Discard, resp.Body)
		return resp.StatusCode
	}
	if code := get("/v1/batch/" + other); code != http.StatusBadRequest {
		t.Fatalf("a 60 KB id: %d, want 400", code)
	}
	start := heapAlloc()
	const reads = 2_000
	for i := range reads {
		path, want := "/v1/batch/"+other[:len(other)-8]+random(4)+"?wait=5s", http.StatusBadRequest
		switch i % 4 {
		case 1:
			path, want = "/v1/batch/"+random(batch.IDLen/2)+"?wait=5s", http.StatusNotFound
		case 2:
			path, want = "/v2/batch/scrape/"+other[:len(other)-8]+random(4), http.StatusBadRequest
		case 3:
			path, want = "/v1/batch/"+mine+"/0", http.StatusNotFound
		}
		if code := get(path); code != want {
			t.Fatalf("request %d %.60s…: %d, want %d", i, path, code, want)
		}
	}
	if n := api.batch.Watching(); n != 0 {
		t.Fatalf("%d watchers left behind", n)
	}
	if grown := int64(heapAlloc()) - int64(start); grown > 20<<20 {
		t.Fatalf("heap grew %d MiB over %d refused reads", grown>>20, reads)
	}
}

// random is n random bytes in hex (2n characters).
func random(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return strings.ToLower(hex.EncodeToString(b))
}
