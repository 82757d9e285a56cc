package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/batch"
)

// TestReturnedURLsIgnoreHost: the URLs the Firecrawl batch API hands back
// (the job's `url`, a page's `next`) are built on the configured public
// URL, whatever Host header the request carries.
func TestReturnedURLsIgnoreHost(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := batchServer(t, origin, batch.Limits{})
	send := func(method, path, body string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Host = "evil.example:1"
		req.Header.Set("Authorization", "Bearer "+testKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatalf("%s %s: %d, not JSON: %v", method, path, resp.StatusCode, err)
		}
		return out
	}
	start := send(http.MethodPost, "/v2/batch/scrape", `{"urls": ["`+origin.URL+`/article", "`+origin.URL+`/data.json"]}`)
	id, _ := start["id"].(string)
	if start["url"] != srv.URL+"/v2/batch/scrape/"+id {
		t.Fatalf("start: url %v, want it on %s: %v", start["url"], srv.URL, start)
	}
	var page map[string]any
	for deadline := time.Now().Add(30 * time.Second); ; {
		page = send(http.MethodGet, "/v2/batch/scrape/"+id+"?limit=1", "")
		if page["status"] != "scraping" || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if page["next"] != srv.URL+"/v2/batch/scrape/"+id+"?limit=1&skip=1" {
		t.Fatalf("next %v, want it on %s: %v", page["next"], srv.URL, page)
	}
}
