package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// TestFirecrawlBatch: the v2 batch routes in the shapes Firecrawl's SDKs
// parse: 200 with an absolute url on start, invalid URLs reported, pages
// of documents with skip/limit/next, the errors list, cancel.
func TestFirecrawlBatch(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := batchServer(t, origin, batch.Limits{})
	resp, start := post(t, srv.URL+"/v2/batch/scrape", testKey, map[string]any{
		"urls":    []string{origin.URL + "/article", "http://10.0.0.5/x", origin.URL + "/image", origin.URL + "/data.json"},
		"formats": []any{"markdown", map[string]any{"type": "html"}}, "origin": "js-sdk@4.42.0", "onlyMainContent": true,
	})
	id, _ := start["id"].(string)
	if resp.StatusCode != 200 || start["success"] != true || start["url"] != srv.URL+"/v2/batch/scrape/"+id ||
		fmt.Sprint(start["invalidURLs"]) != "[http://10.0.0.5/x]" {
		t.Fatalf("start %d %v", resp.StatusCode, start)
	}
	var status map[string]any
	testwait.Until(testwait.Deadline, func() bool {
		_, status = do(t, "GET", srv.URL+"/v2/batch/scrape/"+id, testKey, nil)
		return status["status"] != "scraping"
	})
	data := status["data"].([]any)
	if status["status"] != "completed" || status["completed"] != 3.0 || status["total"] != 3.0 || len(data) != 2 || status["next"] != nil {
		t.Fatalf("status %v", status)
	}
	if _, err := time.Parse(time.RFC3339, status["expiresAt"].(string)); err != nil {
		t.Fatalf("expiresAt: %v", err)
	}
	doc := data[0].(map[string]any)
	if !strings.HasPrefix(doc["markdown"].(string), "# Irrigation") || doc["html"] == nil ||
		doc["metadata"].(map[string]any)["sourceURL"] != origin.URL+"/article" {
		t.Fatalf("document %v", doc)
	}

	_, page := do(t, "GET", srv.URL+"/v2/batch/scrape/"+id+"?limit=1", testKey, nil)
	if len(page["data"].([]any)) != 1 || page["next"] != srv.URL+"/v2/batch/scrape/"+id+"?limit=1&skip=1" {
		t.Fatalf("first page %v", page)
	}
	_, page = do(t, "GET", page["next"].(string), testKey, nil)
	if len(page["data"].([]any)) != 1 || page["next"] != nil {
		t.Fatalf("last page %v", page)
	}
	if resp, _ := do(t, "GET", srv.URL+"/v2/batch/scrape/"+id+"?skip=-1", testKey, nil); resp.StatusCode != 400 {
		t.Fatalf("skip=-1: %d", resp.StatusCode)
	}
	_, errs := do(t, "GET", srv.URL+"/v2/batch/scrape/"+id+"/errors", testKey, nil)
	if list := errs["errors"].([]any); len(list) != 1 || list[0].(map[string]any)["url"] != origin.URL+"/image" {
		t.Fatalf("errors %v", errs)
	}
	resp, body := do(t, "DELETE", srv.URL+"/v2/batch/scrape/"+id, testKey, nil)
	if resp.StatusCode != http.StatusConflict || body["error"] != "Crawl is already completed" {
		t.Fatalf("cancel of a completed job: %d %v", resp.StatusCode, body)
	}
	resp, body = do(t, "GET", srv.URL+"/v2/batch/scrape/"+id, quietKey, nil)
	if resp.StatusCode != http.StatusNotFound || body["error"] != "Job not found" || body["success"] != false {
		t.Fatalf("another caller's job: %d %v", resp.StatusCode, body)
	}
}

// TestFirecrawlBatchFieldWarnings: the scrape options of a batch reach
// every target: those sift does not apply are named in the start answer's
// warning and in each document's; a field of the wrong type is a 400.
func TestFirecrawlBatchFieldWarnings(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := batchServer(t, origin, batch.Limits{})
	_, start := post(t, srv.URL+"/v2/batch/scrape", testKey, map[string]any{
		"urls": []string{origin.URL + "/article"}, "waitFor": 1000, "webhook": "http://127.0.0.1:9/hook",
		"formats": []string{"markdown", "screenshot"}})
	id, _ := start["id"].(string)
	want := []string{"webhook (sift calls no webhooks", "waitFor (sift runs no browser", "formats not supported by sift: screenshot"}
	for _, w := range want {
		if !strings.Contains(fmt.Sprint(start["warning"]), w) {
			t.Fatalf("start %v lacks %q", start, w)
		}
	}
	var status map[string]any
	for deadline := time.Now().Add(10 * time.Second); ; {
		_, status = do(t, "GET", srv.URL+"/v2/batch/scrape/"+id, testKey, nil)
		if status["status"] != "scraping" || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	data, _ := status["data"].([]any)
	if len(data) != 1 || !strings.Contains(fmt.Sprint(data[0].(map[string]any)["warning"]), want[1]) {
		t.Fatalf("status %v", status)
	}
	resp, body := post(t, srv.URL+"/v2/batch/scrape", testKey, map[string]any{"urls": []string{origin.URL + "/article"}, "formats": "markdown"})
	if msg, _ := body["error"].(string); resp.StatusCode != 400 || !strings.HasPrefix(msg, `Bad Request: field "formats"`) {
		t.Fatalf("formats as a string: %d %v", resp.StatusCode, body)
	}
}

func TestFirecrawlBatchCancelAndRefusals(t *testing.T) {
	t.Parallel()
	origin := newHeldOrigin(t)
	srv := batchServer(t, origin.Server, batch.Limits{})
	_, start := post(t, srv.URL+"/v2/batch/scrape", testKey, map[string]any{"urls": []string{origin.URL + "/held", origin.URL + "/article"}})
	resp, body := do(t, "DELETE", srv.URL+"/v2/batch/scrape/"+start["id"].(string), testKey, nil)
	if resp.StatusCode != 200 || fmt.Sprint(body) != "map[status:cancelled]" {
		t.Fatalf("cancel %d %v", resp.StatusCode, body)
	}
	close(origin.release) // the target in flight finishes
	// Cancelled once, it is not "completed": the answer says what it is.
	resp, body = do(t, "DELETE", srv.URL+"/v2/batch/scrape/"+start["id"].(string), testKey, nil)
	if resp.StatusCode != http.StatusConflict || body["error"] != "Crawl is already cancelled" {
		t.Errorf("second cancel: %d %v", resp.StatusCode, body)
	}
	tests := []struct {
		name string
		body map[string]any
	}{
		{"no urls", map[string]any{"urls": []string{}}},
		{"only invalid", map[string]any{"urls": []string{"http://10.0.0.5/"}}},
		{"invalid, not ignored", map[string]any{"urls": []string{origin.URL + "/article", "ftp://x/"}, "ignoreInvalidURLs": false}},
	}
	for _, tt := range tests {
		if resp, body := post(t, srv.URL+"/v2/batch/scrape", testKey, tt.body); resp.StatusCode != 400 || body["success"] != false {
			t.Errorf("%s: %d %v", tt.name, resp.StatusCode, body)
		}
	}
}

// TestFirecrawlBatchNextOnlyWhenMore: while a job still works, a page that
// holds every document stored so far has no `next` (the SDKs follow it at
// once, so a `next` to an empty page would spin them); `next` always
// moves past the page it is on.
func TestFirecrawlBatchNextOnlyWhenMore(t *testing.T) {
	t.Parallel()
	origin := newHeldOrigin(t)
	srv := batchServer(t, origin.Server, batch.Limits{})
	_, start := post(t, srv.URL+"/v2/batch/scrape", testKey, map[string]any{
		"urls": []string{origin.URL + "/article", origin.URL + "/data.json", origin.URL + "/held"}})
	id := start["id"].(string)
	waitTarget(t, srv.URL, id, 2, "running")
	_, page := do(t, "GET", srv.URL+"/v2/batch/scrape/"+id, testKey, nil)
	if page["status"] != "scraping" || len(page["data"].([]any)) != 2 || page["next"] != nil {
		t.Fatalf("a live job's page with every stored document: %v", page)
	}
	_, page = do(t, "GET", srv.URL+"/v2/batch/scrape/"+id+"?limit=1", testKey, nil)
	if next := srv.URL + "/v2/batch/scrape/" + id + "?limit=1&skip=1"; page["next"] != next {
		t.Fatalf("first of two stored documents: next %v, want %s", page["next"], next)
	}
	_, page = do(t, "GET", page["next"].(string), testKey, nil)
	if len(page["data"].([]any)) != 1 || page["next"] != nil {
		t.Fatalf("last stored document: %v", page)
	}
	if resp, body := do(t, "GET", srv.URL+"/v2/batch/scrape/"+strings.Repeat("a", 33), testKey, nil); resp.StatusCode != 400 ||
		body["success"] != false {
		t.Fatalf("an id longer than an id: %d %v", resp.StatusCode, body)
	}
}

// TestFirecrawlUnsupported: the Firecrawl endpoints sift does not serve
// answer Firecrawl's error envelope under 200, which every Firecrawl client
// reads, saying so and what to use instead; any other /v2 path says what
// sift serves, and sift's own unknown paths stay 404.
func TestFirecrawlUnsupported(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, fixtureOrigin(t), testOptions{})
	for _, tc := range []struct{ method, path, instead string }{
		{"POST", "/v2/crawl", "firecrawl-mcp: firecrawl_scrape per URL), or batch scrape the list (POST /v2/batch/scrape)"},
		{"GET", "/v2/crawl/0b3e0c4e-6a39-4e0e-9d2f-3c2b1f0e9a11", "batch scrape"},
		{"DELETE", "/v2/crawl/x", "batch scrape"},
		{"POST", "/v2/extract", "firecrawl_scrape per URL"}, {"GET", "/v2/extract/x", "batch scrape"},
		{"POST", "/v2/agent", "firecrawl_scrape per URL"}, {"GET", "/v2/team/credit-usage", "batch scrape"},
		{"GET", "/v2/team/queue-status", "batch scrape"},
		{"POST", "/v2/parse", "scrape it (POST /v2/scrape; firecrawl_scrape)"}, {"POST", "/v2/browser", "scrape (POST /v2/scrape"},
		{"GET", "/v2/monitor", "changeTracking"}, {"POST", "/v2/feedback", "scrape (POST /v2/scrape)"},
		{"POST", "/v2/scrape/abc/interact", "runs no browser"}, {"POST", "/v2/search/research", "/v2/search"},
		{"GET", "/v2/nothing", "sift serves POST /v2/scrape"},
	} {
		resp, body := do(t, tc.method, srv.URL+tc.path, testKey, map[string]any{"url": "https://example.org/"})
		msg, _ := body["error"].(string)
		hints, _ := body["agent_hints"].([]any)
		if resp.StatusCode != http.StatusOK || body["success"] != false || body["code"] != "UNSUPPORTED" ||
			!strings.HasPrefix(msg, "unsupported: ") || !strings.Contains(msg, tc.instead) || len(hints) != 1 || hints[0] != msg {
			t.Errorf("%s %s: %d %v", tc.method, tc.path, resp.StatusCode, body)
		}
	}
	if resp, body := do(t, "GET", srv.URL+"/v2/scrape", testKey, nil); resp.StatusCode != http.StatusMethodNotAllowed ||
		resp.Header.Get("Allow") != "POST" || body["error"] != "invalid: method not allowed: /v2/scrape takes POST" {
		t.Errorf("GET /v2/scrape: %d, Allow %q, %v; want 405 naming POST: a served path keeps its method check",
			resp.StatusCode, resp.Header.Get("Allow"), body)
	}
	if resp, _ := do(t, "POST", srv.URL+"/v1/batch/x", testKey, nil); resp.Header.Get("Allow") != "GET, DELETE" {
		t.Errorf("POST /v1/batch/x: Allow %q, want GET, DELETE", resp.Header.Get("Allow"))
	}
	if resp, body := do(t, "GET", srv.URL+"/v1/nothing", testKey, nil); resp.StatusCode != 404 || body["error"] != "not_found: no such endpoint" {
		t.Errorf("unknown path: %d %v", resp.StatusCode, body)
	}
}

// TestEveryRouteNeedsAKey: no path answers without a valid key but
// /healthz and an open /metrics, not the Firecrawl endpoints sift does not
// serve, nor an unknown path, nor a wrong method: each is 401 with the
// bearer challenge, in Firecrawl's envelope under /v2 and sift's elsewhere.
func TestEveryRouteNeedsAKey(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, fixtureOrigin(t), testOptions{})
	for _, key := range []string{"", "wrong"} {
		for _, tc := range []struct{ method, path string }{
			{"POST", "/v2/crawl"}, {"GET", "/v2/crawl/x"}, {"POST", "/v1/crawl"}, {"POST", "/v1/extract"},
			{"GET", "/v2/team/credit-usage"}, {"POST", "/v2/scrape/abc/interact"}, {"POST", "/v2/search/research"},
			{"GET", "/v2/nothing"}, {"GET", "/v1/nothing"}, {"GET", "/nothing"},
			{"GET", "/v2/scrape"}, {"GET", "/v1/fetch"}, {"POST", "/v2/scrape"}, {"POST", "/v1/scrape"}, {"POST", "/v2/map"},
		} {
			resp, body := do(t, tc.method, srv.URL+tc.path, key, map[string]any{"url": "https://example.org/"})
			msg, _ := body["error"].(string)
			if resp.StatusCode != http.StatusUnauthorized || body["success"] != false || !strings.HasPrefix(msg, "unauthorized: ") ||
				body["code"] != nil || resp.Header.Get("WWW-Authenticate") != `Bearer realm="sift"` {
				t.Errorf("%s %s, key %q: %d %v; want 401", tc.method, tc.path, key, resp.StatusCode, body)
			}
		}
	}
	for _, path := range []string{"/healthz", "/metrics"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized {
			t.Errorf("GET %s without a key: 401, want it open", path)
		}
	}
	if resp, _ := do(t, "POST", srv.URL+"/healthz", "", map[string]any{}); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /healthz without a key: %d, want 405", resp.StatusCode)
	}
}
