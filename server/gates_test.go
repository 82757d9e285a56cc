package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// blockingOrigin serves text; a path under /hold/ waits for release. It
// counts the requests per path and signals entered at the first held one.
type blockingOrigin struct {
	*httptest.Server
	hits    sync.Map // path -> *atomic.Int32
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func newBlockingOrigin(t *testing.T) *blockingOrigin {
	o := &blockingOrigin{entered: make(chan struct{}), release: make(chan struct{})}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := o.hits.LoadOrStore(r.URL.Path, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		if len(r.URL.Path) > 6 && r.URL.Path[:6] == "/hold/" {
			o.once.Do(func() { close(o.entered) })
			select {
			case <-o.release:
			case <-time.After(30 * time.Second):
			}
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "words at "+r.URL.Path)
	}))
	t.Cleanup(o.Close)
	return o
}

func (o *blockingOrigin) hitsOf(path string) int32 {
	n, ok := o.hits.Load(path)
	if !ok {
		return 0
	}
	return n.(*atomic.Int32).Load()
}

// parallel posts body n times at once as the test caller and returns the
// statuses and whether each answer came from the cache.
func parallel(t *testing.T, url string, n int, body map[string]any) (statuses []int, cached []bool) {
	t.Helper()
	statuses, cached = make([]int, n), make([]bool, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			resp, out := post(t, url, testKey, body)
			statuses[i] = resp.StatusCode
			if src, ok := out["source"].(map[string]any); ok {
				cached[i], _ = src["cached"].(bool)
			}
		})
	}
	wg.Wait()
	return statuses, cached
}

// TestCacheHitsTakeNoGate: with every gate slot held by a fetch still
// running, one caller's parallel requests for a cached page are all
// answered from the cache: a hit never touches the origin, so no gate
// applies to it.
func TestCacheHitsTakeNoGate(t *testing.T) {
	t.Parallel()
	origin := newBlockingOrigin(t)
	srv := newTestServer(t, origin.Server, testOptions{Global: 1, PerHost: 1}, `stage "cache" {}`)
	page := map[string]any{"url": origin.URL + "/page"}
	if resp, body := post(t, srv.URL+"/v1/fetch", testKey, page); resp.StatusCode != 200 {
		t.Fatalf("priming the cache: %d %v", resp.StatusCode, body)
	}
	held := make(chan int, 1)
	go func() {
		resp, _ := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/hold/slow"})
		held <- resp.StatusCode
	}()
	<-origin.entered
	statuses, cached := parallel(t, srv.URL+"/v1/fetch", 8, page)
	for i := range statuses {
		if statuses[i] != 200 || !cached[i] {
			t.Errorf("hit %d with the gates full: status %d, cached %v", i, statuses[i], cached[i])
		}
	}
	close(origin.release)
	if status := <-held; status != 200 {
		t.Errorf("the held fetch ended %d", status)
	}
	if n := origin.hitsOf("/page"); n != 1 {
		t.Errorf("origin fetched /page %d times, want once", n)
	}
}

// TestIdenticalMissesShareOneFetch: eight parallel requests for one page
// not yet cached reach the origin once; the others wait for that fetch and
// are answered from its snapshot, none refused by the per-host gate.
func TestIdenticalMissesShareOneFetch(t *testing.T) {
	t.Parallel()
	origin := newBlockingOrigin(t)
	api := newTestAPI(t, origin.Server, testOptions{PerHost: 1}, `stage "cache" {}`)
	const n = 8
	var arrived atomic.Int32
	all := make(chan struct{})
	h := api.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if arrived.Add(1) == n {
			close(all)
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	go func() {
		select {
		case <-all:
		case <-time.After(30 * time.Second):
		}
		close(origin.release)
	}()
	statuses, cached := parallel(t, srv.URL+"/v1/fetch", n, map[string]any{"url": origin.URL + "/hold/page"})
	fresh := 0
	for i, s := range statuses {
		if s != 200 {
			t.Errorf("request %d: status %d", i, s)
		}
		if !cached[i] {
			fresh++
		}
	}
	if got := origin.hitsOf("/hold/page"); got != 1 || fresh != 1 {
		t.Errorf("origin reached %d times, %d answers fresh; want 1 and 1", got, fresh)
	}
}
