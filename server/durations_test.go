package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/testkit/testwait"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/store"
)

// TestClientDurationsAreClamped: every duration a client sends is bounded
// before it is multiplied into a time.Duration, on every route that takes
// one. 2^62 ms once wrapped to 0: a timeout that fired at once (408), a
// maxAge that fetched fresh, a long-poll wait past the 30 s cap accepted.
// Now a huge timeout or maxAge is clamped (no timeout shorter than sift's
// own; any cached copy), a huge wait is the 400 a wait over 30 s is, and
// negative values are the 400s that name their field, as before.
func TestClientDurationsAreClamped(t *testing.T) {
	t.Parallel()
	const huge = int64(1) << 62
	origin := fixtureOrigin(t)
	page := origin.URL + "/article"
	sx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"query":"q","results":[{"url":%q,"title":"Irrigation","content":"drip"}],"answers":[],"infoboxes":[],"unresponsive_engines":[]}`, page)
	}))
	defer sx.Close()
	svc := search.New(&config.Search{Timeout: 5 * time.Second, SearXNG: &config.SearXNG{URL: sx.URL},
		AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		AllowPorts: []int{int(netip.MustParseAddrPort(sx.Listener.Addr().String()).Port())}}, nil)
	st, err := store.OpenSQLite(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	srv := newTestServer(t, origin, testOptions{Search: svc, PerHost: 4,
		testBatch: &testBatch{Store: st, Runner: batch.Options{RetryEvery: 20 * time.Millisecond}}}, `stage "cache" {}`)

	// A cached copy of the page, for maxAge to find, and a batch job for
	// the long-poll's wait.
	if resp, body := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": page}); resp.StatusCode != 200 {
		t.Fatalf("the first scrape: %d %v", resp.StatusCode, body)
	}
	_, sub := post(t, srv.URL+"/v1/batch", testKey, targetsOf(page))
	job, _ := sub["job_id"].(string)
	if job == "" {
		t.Fatalf("batch submit: %v", sub)
	}
	// /v1/batch reads the page without images, an entry of its own (the
	// scrape's has them): its job fetches, and a caller has one live job.
	testwait.For(t, "the /v1 batch job to finish", func() bool {
		_, status := do(t, http.MethodGet, srv.URL+"/v1/batch/"+job, testKey, nil)
		return status["status"] != "queued" && status["status"] != "running"
	})

	// docOf is the one document of a Firecrawl answer: a scrape's data, a
	// search's first web result, or a batch's first document once its job
	// is done.
	docOf := func(t *testing.T, route string, body map[string]any) map[string]any {
		t.Helper()
		switch route {
		case "/v2/search":
			web, _ := body["data"].(map[string]any)["web"].([]any)
			if len(web) == 0 {
				return nil
			}
			return web[0].(map[string]any)
		case "/v2/batch/scrape":
			id, _ := body["id"].(string)
			var status map[string]any
			testwait.For(t, "the batch to finish", func() bool {
				_, status = do(t, http.MethodGet, srv.URL+"/v2/batch/scrape/"+id, testKey, nil)
				return status["status"] != "scraping"
			})
			data, _ := status["data"].([]any)
			if len(data) == 0 {
				t.Logf("batch status %.300v", status)
				return nil
			}
			return data[0].(map[string]any)
		}
		data, _ := body["data"].(map[string]any)
		return data
	}
	cacheState := func(doc map[string]any) string {
		meta, _ := doc["metadata"].(map[string]any)
		s, _ := meta["cacheState"].(string)
		return s
	}

	type check func(t *testing.T, body map[string]any) string
	scraped := func(route string) check {
		return func(t *testing.T, body map[string]any) string {
			doc := docOf(t, route, body)
			if md, _ := doc["markdown"].(string); !strings.HasPrefix(md, "# Irrigation") {
				return fmt.Sprintf("no scraped page: %.300v", body)
			}
			return ""
		}
	}
	cachedCopy := func(route string) check {
		return func(t *testing.T, body map[string]any) string {
			if got := cacheState(docOf(t, route, body)); got != "hit" {
				return fmt.Sprintf("cacheState %q, want the cached copy (hit): %.300v", got, body)
			}
			return ""
		}
	}
	mapped := func(t *testing.T, body map[string]any) string {
		if links, _ := body["links"].([]any); len(links) == 0 {
			return fmt.Sprintf("no links: %.300v", body)
		}
		return ""
	}
	refused := func(field string) check {
		return func(t *testing.T, body map[string]any) string {
			if msg, _ := body["error"].(string); !strings.Contains(msg, field) {
				return fmt.Sprintf("error %q does not name %s", msg, field)
			}
			return ""
		}
	}
	scrape := func(opts map[string]any) map[string]any {
		out := map[string]any{"url": page}
		for k, v := range opts {
			out[k] = v
		}
		return out
	}
	search := func(opts map[string]any) map[string]any {
		return map[string]any{"query": "q", "scrapeOptions": opts}
	}
	batchScrape := func(opts map[string]any) map[string]any {
		out := map[string]any{"urls": []string{page}}
		for k, v := range opts {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name, method, route string
		body                any
		status              int
		check               check
	}{
		{"scrape timeout 2^62", http.MethodPost, "/v2/scrape", scrape(map[string]any{"timeout": huge}), 200, scraped("/v2/scrape")},
		{"scrape timeout -1", http.MethodPost, "/v2/scrape", scrape(map[string]any{"timeout": -1}), 400, refused("timeout")},
		{"scrape timeout -2^62", http.MethodPost, "/v2/scrape", scrape(map[string]any{"timeout": -huge}), 400, refused("timeout")},
		{"scrape maxAge 2^62", http.MethodPost, "/v2/scrape", scrape(map[string]any{"maxAge": huge}), 200, cachedCopy("/v2/scrape")},
		{"scrape maxAge -1", http.MethodPost, "/v2/scrape", scrape(map[string]any{"maxAge": -1}), 400, refused("maxAge")},
		{"scrape maxAge -2^62", http.MethodPost, "/v2/scrape", scrape(map[string]any{"maxAge": -huge}), 400, refused("maxAge")},
		{"map timeout 2^62", http.MethodPost, "/v2/map", map[string]any{"url": page, "timeout": huge}, 200, mapped},
		{"map timeout -1", http.MethodPost, "/v2/map", map[string]any{"url": page, "timeout": -1}, 400, refused("timeout")},
		{"search timeout 2^62", http.MethodPost, "/v2/search", search(map[string]any{"timeout": huge}), 200, scraped("/v2/search")},
		{"search timeout -1", http.MethodPost, "/v2/search", search(map[string]any{"timeout": -1}), 400, refused("timeout")},
		{"search maxAge 2^62", http.MethodPost, "/v2/search", search(map[string]any{"maxAge": huge}), 200, cachedCopy("/v2/search")},
		{"search maxAge -1", http.MethodPost, "/v2/search", search(map[string]any{"maxAge": -1}), 400, refused("maxAge")},
		{"batch scrape timeout 2^62", http.MethodPost, "/v2/batch/scrape", batchScrape(map[string]any{"timeout": huge}), 200, scraped("/v2/batch/scrape")},
		{"batch scrape maxAge 2^62", http.MethodPost, "/v2/batch/scrape", batchScrape(map[string]any{"maxAge": huge}), 200, cachedCopy("/v2/batch/scrape")},
		{"batch scrape timeout -1", http.MethodPost, "/v2/batch/scrape", batchScrape(map[string]any{"timeout": -1}), 400, refused("timeout")},
		{"batch scrape maxAge -1", http.MethodPost, "/v2/batch/scrape", batchScrape(map[string]any{"maxAge": -1}), 400, refused("maxAge")},
		{"batch wait 2^62 s", http.MethodGet, fmt.Sprintf("/v1/batch/%s?wait=%d", job, huge), nil, 400, refused("wait")},
		{"batch wait -2^62 s", http.MethodGet, fmt.Sprintf("/v1/batch/%s?wait=%d", job, -huge), nil, 400, refused("wait")},
		{"batch wait -1 s", http.MethodGet, "/v1/batch/" + job + "?wait=-1", nil, 400, refused("wait")},
		{"batch wait 1 s", http.MethodGet, "/v1/batch/" + job + "?wait=1", nil, 200, func(*testing.T, map[string]any) string { return "" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := do(t, tc.method, srv.URL+tc.route, testKey, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %.300v", resp.StatusCode, tc.status, body)
			}
			if why := tc.check(t, body); why != "" {
				t.Error(why)
			}
		})
	}
}
