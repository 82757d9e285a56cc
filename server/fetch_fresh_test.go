package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestFetchFresh: /v1/fetch's fresh skips the cached copy of a page that
// changed, and the cache keeps the new one.
func TestFetchFresh(t *testing.T) {
	t.Parallel()
	var version atomic.Int32
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "version %d", version.Load())
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	steps := []struct {
		version int32
		fresh   bool
		want    string
		cached  bool
	}{
		{1, false, "version 1", false},
		{2, false, "version 1", true},
		{2, true, "version 2", false},
		{3, false, "version 2", true},
	}
	for i, st := range steps {
		version.Store(st.version)
		resp, out := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/page", "fresh": st.fresh})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("step %d: %d %v", i, resp.StatusCode, out)
		}
		source, _ := out["source"].(map[string]any)
		if out["content"] != st.want || source["cached"] != st.cached {
			t.Fatalf("step %d (fresh %v): %q cached %v, want %q cached %v", i, st.fresh, out["content"], source["cached"], st.want, st.cached)
		}
	}
}
