package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestScrapeCacheOptions: maxAge 0 goes to the origin past a cached copy
// and refreshes it; storeInCache false leaves the cache as it was; a maxAge
// longer than the copy's age takes the copy.
func TestScrapeCacheOptions(t *testing.T) {
	t.Parallel()
	var version atomic.Int32
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintf(w, "version %d", version.Load())
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	scrape := func(opts map[string]any) (string, string) {
		t.Helper()
		body := map[string]any{"url": origin.URL + "/page"}
		for k, v := range opts {
			body[k] = v
		}
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, body)
		if resp.StatusCode != 200 {
			t.Fatalf("%v: %d %v", opts, resp.StatusCode, out)
		}
		data := out["data"].(map[string]any)
		if w, _ := data["warning"].(string); w != "" {
			t.Errorf("%v: warning %q", opts, w)
		}
		return data["markdown"].(string), data["metadata"].(map[string]any)["cacheState"].(string)
	}
	steps := []struct {
		version      int32
		opts         map[string]any
		text, cached string
	}{
		{1, nil, "version 1", "miss"},
		{2, nil, "version 1", "hit"},
		{2, map[string]any{"maxAge": 3_600_000}, "version 1", "hit"},
		{2, map[string]any{"maxAge": 0}, "version 2", "miss"},
		{3, nil, "version 2", "hit"},
		{3, map[string]any{"maxAge": 0, "storeInCache": false}, "version 3", "miss"},
		{3, nil, "version 2", "hit"},
		{3, map[string]any{"maxAge": 1}, "version 3", "miss"},
	}
	for i, st := range steps {
		version.Store(st.version)
		if i == len(steps)-1 {
			time.Sleep(5 * time.Millisecond) // the cached copy must be older than maxAge 1 ms
		}
		if text, cached := scrape(st.opts); text != st.text || cached != st.cached {
			t.Fatalf("step %d %v: %q %s, want %q %s", i, st.opts, text, cached, st.text, st.cached)
		}
	}
}

// TestScrapeCacheOnly: lockdown and minAge answer from the cache or not at
// all: on a miss, 404 with Firecrawl's code and no request to the origin;
// on a hit, the cached copy. Before, sift warned about lockdown, ignored
// minAge and fetched the origin.
func TestScrapeCacheOnly(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "the page")
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	scrape := func(opts map[string]any) (int, map[string]any) {
		t.Helper()
		body := map[string]any{"url": origin.URL + "/page"}
		for k, v := range opts {
			body[k] = v
		}
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, body)
		return resp.StatusCode, out
	}
	for _, tc := range []struct {
		opts map[string]any
		code string
	}{
		{map[string]any{"lockdown": true}, "SCRAPE_LOCKDOWN_CACHE_MISS"},
		{map[string]any{"minAge": 1}, "SCRAPE_NO_CACHED_DATA"},
	} {
		if status, out := scrape(tc.opts); status != http.StatusNotFound || out["code"] != tc.code || hits.Load() != 0 {
			t.Fatalf("%v on an uncached page: %d %v after %d origin requests; want 404 %s and none", tc.opts, status, out, hits.Load(), tc.code)
		}
	}
	if status, out := scrape(nil); status != 200 || hits.Load() != 1 {
		t.Fatalf("a plain scrape: %d %v", status, out)
	}
	for _, opts := range []map[string]any{{"lockdown": true}, {"minAge": 0}} {
		status, out := scrape(opts)
		data, _ := out["data"].(map[string]any)
		if status != 200 || data["metadata"].(map[string]any)["cacheState"] != "hit" || data["warning"] != nil || hits.Load() != 1 {
			t.Fatalf("%v on a cached page: %d %v after %d origin requests", opts, status, out, hits.Load())
		}
	}
	if status, out := scrape(map[string]any{"minAge": 3_600_000}); status != http.StatusNotFound || out["code"] != "SCRAPE_NO_CACHED_DATA" || hits.Load() != 1 {
		t.Fatalf("minAge past the copy's age: %d %v", status, out)
	}
}

// TestScrapeFieldWarnings: every field sift does not apply is named in the
// document's warning with its reason, a field at its default is not, and
// a field of the wrong type is a 400 that names it.
func TestScrapeFieldWarnings(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	tests := []struct {
		fields map[string]any
		want   []string // in the warning; none means no warning
	}{
		{map[string]any{"onlyMainContent": true, "mobile": false, "waitFor": 0, "actions": []any{}, "proxy": "basic",
			"headers": map[string]any{}, "removeBase64Images": true, "origin": "js-sdk@4.42.0", "maxAge": 0, "storeInCache": true,
			"timeout": 3000, "parsers": []any{"pdf"}, "blockAds": true}, nil},
		// The test server's fetch timeout is 5 s: a longer one is capped.
		{map[string]any{"timeout": 30000}, []string{"timeout 30000 ms capped at 5s for the page's download: the fetch stage's timeout"}},
		{map[string]any{"waitFor": 2000, "actions": []any{map[string]any{"type": "click"}}, "mobile": true},
			[]string{"not applied: actions, mobile, waitFor (sift runs no browser and no JavaScript)"}},
		{map[string]any{"headers": map[string]any{"Cookie": "a=b"}}, []string{"headers (sift never forwards a caller's headers"}},
		{map[string]any{"location": map[string]any{"country": "DE"}, "proxy": "stealth"}, []string{"location, proxy (sift fetches from its own address only)"}},
		{map[string]any{"onlyMainContent": false}, nil},
		{map[string]any{"includeTags": []string{"article"}, "excludeTags": []string{"nav"}}, nil},
		{map[string]any{"includeTags": []string{"main"}}, []string{"includeTags matched no element of the page"}},
		{map[string]any{"removeBase64Images": false}, nil}, // honoured: the page's data: images kept
		{map[string]any{"removeBase64Images": false, "siftOptions": map[string]any{"images": false}},
			[]string{"not applied: removeBase64Images false (siftOptions images false leaves every image out)"}},
		{map[string]any{"parsers": []any{map[string]any{"type": "docx"}}}, []string{`parser "docx"`, "parsers without pdf"}},
		{map[string]any{"frobnicate": 1, "zap": true}, []string{"unknown fields ignored: frobnicate, zap"}},
		{map[string]any{"redactPII": true, "profile": map[string]any{"name": "p"}},
			[]string{"redactPII (sift does not redact personal data", "profile (sift runs no browser"}},
		{map[string]any{"formats": []any{"markdown", "screenshot"}}, []string{"formats not supported by sift: screenshot (sift runs no browser: it renders no page to capture)"}},
		// Fields inside the formats and parsers objects are named too.
		{map[string]any{"formats": []any{map[string]any{"type": "markdown", "bogus": 1}}}, []string{"unknown fields ignored: formats[0].bogus"}},
		{map[string]any{"parsers": []any{map[string]any{"type": "pdf", "mode": "ocr", "pages": true, "blocks": true}}},
			[]string{"unknown fields ignored: parsers[0].blocks, parsers[0].pages"}},
		{map[string]any{"parsers": []any{map[string]any{"type": "pdf", "mode": "slow"}}}, []string{`parsers[0].mode "slow" (want fast, auto or ocr)`}},
	}
	for _, tc := range tests {
		body := map[string]any{"url": origin.URL + "/article"}
		for k, v := range tc.fields {
			body[k] = v
		}
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, body)
		if resp.StatusCode != 200 {
			t.Errorf("%v: %d %v", tc.fields, resp.StatusCode, out)
			continue
		}
		warning, _ := out["data"].(map[string]any)["warning"].(string)
		if len(tc.want) == 0 && warning != "" {
			t.Errorf("%v: unexpected warning %q", tc.fields, warning)
		}
		for _, w := range tc.want {
			if !strings.Contains(warning, w) {
				t.Errorf("%v: warning %q lacks %q", tc.fields, warning, w)
			}
		}
	}
	bad := []struct {
		fields map[string]any
		want   string
	}{
		{map[string]any{"formats": "markdown"}, `Bad Request: field "formats": want an array, not a string`},
		{map[string]any{"formats": []any{7}}, `Bad Request: field "formats": `},
		{map[string]any{"timeout": "soon"}, `Bad Request: field "timeout": want an integer, not a string`},
		{map[string]any{"timeout": 0}, `Bad Request: field "timeout": want milliseconds`},
		{map[string]any{"maxAge": true}, `Bad Request: field "maxAge": want an integer, not a bool`},
		{map[string]any{"maxAge": -5}, `Bad Request: field "maxAge": want milliseconds, 0 or more`},
		{map[string]any{"parsers": []any{map[string]any{"maxPages": 2}}}, `Bad Request: field "parsers": `},
	}
	for _, tc := range bad {
		body := map[string]any{"url": origin.URL + "/article"}
		for k, v := range tc.fields {
			body[k] = v
		}
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, body)
		if msg, _ := out["error"].(string); resp.StatusCode != 400 || out["code"] != "BAD_REQUEST" || !strings.HasPrefix(msg, tc.want) {
			t.Errorf("%v: %d %v, want 400 %q", tc.fields, resp.StatusCode, out, tc.want)
		}
	}
}

// TestScrapeNestedFieldsKnown: the fields sift reads inside a format or
// parser object draw no "unknown" warning.
func TestScrapeNestedFieldsKnown(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	for _, fields := range []map[string]any{
		{"parsers": []any{map[string]any{"type": "pdf", "mode": "fast", "maxPages": 3}}},
		{"formats": []any{"markdown", map[string]any{"type": "json", "prompt": "the title", "schema": map[string]any{"type": "object"}}}},
	} {
		fields["url"] = origin.URL + "/article"
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, fields)
		warning, _ := out["data"].(map[string]any)["warning"].(string)
		if resp.StatusCode != 200 || strings.Contains(warning, "ignored") || strings.Contains(warning, "mode") {
			t.Errorf("%v: %d, warning %q", fields, resp.StatusCode, warning)
		}
	}
}

// TestScrapeTimeout: a timeout shorter than sift's own ends the scrape
// with Firecrawl's 408 SCRAPE_TIMEOUT, whose message names it.
func TestScrapeTimeout(t *testing.T) {
	t.Parallel()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	srv := newTestServer(t, slow, testOptions{})
	start := time.Now()
	resp, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": slow.URL + "/x", "timeout": 300})
	// The test server's own fetch timeout is 5 s: an answer well before it
	// is the request's timeout at work.
	if resp.StatusCode != http.StatusRequestTimeout || out["code"] != "SCRAPE_TIMEOUT" || time.Since(start) > 3*time.Second {
		t.Fatalf("%d %v after %s", resp.StatusCode, out, time.Since(start))
	}
	// The message names the timeout that fired, not sift's own.
	if msg, _ := out["error"].(string); msg != "timeout: no complete answer within the request's timeout of 300ms (timeout 300 ms)" {
		t.Errorf("error %q", msg)
	}
}

// TestScrapePDFMaxPages: parsers [{type: pdf, maxPages: 1}] reads the
// first page only.
func TestScrapePDFMaxPages(t *testing.T) {
	t.Parallel()
	corpus := filepath.Join("..", "plugins", "pdf", "testdata")
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := os.ReadFile(filepath.Join(corpus, filepath.Base(r.URL.Path)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(body)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	_, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/pdfjs-TAMReview.pdf",
		"parsers": []any{map[string]any{"type": "pdf", "maxPages": 1}}})
	md, _ := out["data"].(map[string]any)["markdown"].(string)
	if !strings.HasPrefix(md, "<!-- page 1 -->") || strings.Contains(md, "<!-- page 2 -->") {
		t.Fatalf("%.300v", out)
	}
}
