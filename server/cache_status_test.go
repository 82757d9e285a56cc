package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// An origin's passing failure (a 503 or 429 with Retry-After) is not kept:
// the next /v2/scrape goes to the origin again and its success is then
// kept; a 404 is kept, for the short negative lifetime.
func TestErrorStatusNotCachedOverHTTP(t *testing.T) {
	t.Parallel()
	tests := []struct {
		first int
		want  []string // statusCode and cacheState of three scrapes
	}{
		{http.StatusServiceUnavailable, []string{"503 miss", "200 miss", "200 hit"}},
		{http.StatusTooManyRequests, []string{"429 miss", "200 miss", "200 hit"}},
		{http.StatusInternalServerError, []string{"500 miss", "200 miss", "200 hit"}},
		{http.StatusNotFound, []string{"404 miss", "404 hit", "404 hit"}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.first), func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				if calls.Add(1) == 1 {
					w.Header().Set("Retry-After", "5")
					w.WriteHeader(tc.first)
					fmt.Fprint(w, "<html><body><p>Not now.</p></body></html>")
					return
				}
				fmt.Fprint(w, "<html><body><article><h1>Ready</h1><p>The page is back.</p></article></body></html>")
			}))
			t.Cleanup(origin.Close)
			srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
			var got []string
			for range tc.want {
				_, body := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/page"})
				data, _ := body["data"].(map[string]any)
				meta, _ := data["metadata"].(map[string]any)
				got = append(got, fmt.Sprint(meta["statusCode"], " ", meta["cacheState"]))
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v, after %d calls to the origin", got, tc.want, calls.Load())
			}
		})
	}
}
