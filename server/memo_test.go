package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siftd/sift/metrics"
)

// postBytes posts body as key and returns the status and the answer as written.
func postBytes(t *testing.T, url, key string, body any) (int, []byte) {
	t.Helper()
	buf, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(buf))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// TestKeptAnswersAreTheAnswers: the answers a snapshot in memory keeps
// beside it are, byte for byte, what the hit that made them answered, one
// per shape of request: every field of a request (the URL as written,
// mode, links, grep, max_tokens, options) has its own, and none is served
// to a request that differs. Each hit is still counted and logged.
func TestKeptAnswersAreTheAnswers(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	m := metrics.New()
	var logs lockedBuffer
	srv := newTestServer(t, origin, testOptions{Options: Options{Metrics: m, Logger: slog.New(slog.NewJSONHandler(&logs, nil))}}, `stage "cache" {}`)
	page := origin.URL + "/article"
	shapes := []map[string]any{
		{"url": page},
		{"url": strings.Replace(page, "http://", "HTTP://", 1)},
		{"url": page, "mode": "raw"},
		{"url": page, "links": false},
		{"url": page, "grep": "roots"},
		{"url": page, "max_tokens": 20},
		{"url": page, "max_tokens": 20, "question": "soil"},
		{"url": page, "context": true},
	}
	firsts := map[string]string{}
	requests, hits := 0, 0
	for _, shape := range shapes {
		key, _ := json.Marshal(shape)
		// The first may be a miss (links changes what is extracted).
		status, prime := postBytes(t, srv.URL+"/v1/fetch", testKey, shape)
		if status != http.StatusOK {
			t.Fatalf("%s: %d %s", key, status, prime)
		}
		requests, hits = requests+4, hits+3
		if bytes.Contains(prime, []byte(`"cached":true`)) {
			hits++
		}
		status, first := postBytes(t, srv.URL+"/v1/fetch", testKey, shape)
		if status != http.StatusOK || !bytes.Contains(first, []byte(`"cached":true`)) {
			t.Fatalf("%s: %d %s", key, status, first)
		}
		for range 2 {
			if _, again := postBytes(t, srv.URL+"/v1/fetch", testKey, shape); !bytes.Equal(again, first) {
				t.Errorf("%s: a later hit answered\n%s\nthe first\n%s", key, again, first)
			}
		}
		for other, answer := range firsts {
			if answer == string(first) {
				t.Errorf("%s was answered as %s", key, other)
			}
		}
		firsts[string(key)] = string(first)
	}
	var a struct {
		Source struct {
			URL string `json:"url"`
		} `json:"source"`
	}
	_ = json.Unmarshal([]byte(firsts[fmt.Sprintf(`{"url":%q}`, strings.Replace(page, "http://", "HTTP://", 1))]), &a)
	if !strings.HasPrefix(a.Source.URL, "HTTP://") {
		t.Errorf("source.url %q, want the URL as written", a.Source.URL)
	}

	text := scrape(t, srv.URL)
	if want := fmt.Sprintf(`sift_cache_lookups_total{result="hit"} %d`, hits); !strings.Contains(text, want) {
		t.Errorf("no %s in\n%s", want, grepLines(text, "sift_cache_lookups_total"))
	}
	if want := fmt.Sprintf(`sift_http_requests_total{caller="agent",route="/v1/fetch",status="200"} %d`, requests); !strings.Contains(text, want) {
		t.Errorf("no %s in\n%s", want, grepLines(text, "sift_http_requests_total"))
	}
	var lines []logLine
	for _, l := range requestLines(t, &logs) {
		if l.Route == "/v1/fetch" {
			lines = append(lines, l)
		}
	}
	if len(lines) != requests {
		t.Fatalf("%d request lines, want %d", len(lines), requests)
	}
	logged := 0
	for _, l := range lines {
		if l.Cached != nil && *l.Cached && l.Tokens != nil && *l.Tokens > 0 && l.Host != "" {
			logged++
		}
	}
	if logged != hits {
		t.Errorf("%d log lines say what a hit answered, want %d", logged, hits)
	}
}

// TestKeptAnswersGoWithTheirSnapshot: an answer kept beside a snapshot is
// never served once the snapshot is replaced (fresh) or has expired, and
// a restricted caller, whose entries are its own, never gets another
// class's.
func TestKeptAnswersGoWithTheirSnapshot(t *testing.T) {
	t.Parallel()
	var version atomic.Int32
	var maxAge atomic.Int32
	maxAge.Store(3600)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Cache-Control", fmt.Sprintf("max-age=%d", maxAge.Load()))
		fmt.Fprintf(w, "version %d", version.Load())
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	fetch := func(key string, body map[string]any) (string, bool) {
		t.Helper()
		resp, out := post(t, srv.URL+"/v1/fetch", key, body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%d %v", resp.StatusCode, out)
		}
		source, _ := out["source"].(map[string]any)
		content, _ := out["content"].(string)
		return content, source["cached"] == true
	}
	page := map[string]any{"url": origin.URL + "/page"}
	version.Store(1)
	fetch(testKey, page)
	for range 3 { // kept now
		if got, cached := fetch(testKey, page); got != "version 1" || !cached {
			t.Fatalf("hit: %q cached %v", got, cached)
		}
	}
	if got, cached := fetch(quietKey, page); cached || got != "version 1" {
		t.Errorf("a restricted caller was served another class's entry: %q cached %v", got, cached)
	}

	version.Store(2)
	if got, _ := fetch(testKey, map[string]any{"url": origin.URL + "/page", "fresh": true}); got != "version 2" {
		t.Fatalf("fresh: %q", got)
	}
	if got, cached := fetch(testKey, page); got != "version 2" || !cached {
		t.Errorf("after fresh replaced the snapshot: %q cached %v, want version 2 from the cache", got, cached)
	}

	maxAge.Store(1)
	version.Store(3)
	fetch(testKey, map[string]any{"url": origin.URL + "/page", "fresh": true}) // kept for a second
	for range 2 {
		fetch(testKey, page)
	}
	deadline := time.Now().Add(30 * time.Second)
	version.Store(4)
	for {
		got, cached := fetch(testKey, page)
		if !cached {
			if got != "version 4" {
				t.Errorf("after expiry: %q", got)
			}
			break
		}
		if got != "version 3" {
			t.Fatalf("before expiry: %q", got)
		}
		if time.Now().After(deadline) {
			t.Fatal("an expired snapshot's answer is still served")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestScrapeHitsReadTheBodyOnce: a Firecrawl scrape's links, page metadata
// and raw HTML, read from a snapshot's body once and kept beside it, are
// on every hit what the first hit read; only the scrape's id differs.
func TestScrapeHitsReadTheBodyOnce(t *testing.T) {
	t.Parallel()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>T</title><meta property="og:title" content="OG"></head><body><article>`+
			strings.Repeat("<p>Some words of the page, long enough to be its main text.</p>", 8)+
			`<a href="/one">one</a> <a href="https://example.com/two">two</a>`+"\u200b"+`</article></body></html>`)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	request := map[string]any{"url": origin.URL + "/page", "formats": []string{"markdown", "links", "rawHtml"}}
	var first map[string]any
	for i := range 4 {
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, request)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("scrape %d: %d %v", i, resp.StatusCode, out)
		}
		data := out["data"].(map[string]any)
		meta := data["metadata"].(map[string]any)
		delete(meta, "scrapeId")
		for _, k := range []string{"cachedAt", "cacheState"} {
			delete(meta, k)
		}
		delete(meta["sift"].(map[string]any), "cached")
		delete(meta["sift"].(map[string]any), "cachedAt")
		delete(meta["sift"].(map[string]any), "fetchedAt")
		if i == 0 {
			first = data
			links, _ := data["links"].([]any)
			if len(links) != 2 || strings.Contains(data["rawHtml"].(string), "\u200b") || meta["ogTitle"] != "OG" {
				t.Fatalf("first scrape: links %v, og:title %v, rawHtml %q", links, meta["ogTitle"], data["rawHtml"])
			}
			continue
		}
		if !reflect.DeepEqual(data, first) {
			t.Errorf("hit %d answered\n%v\nthe miss\n%v", i, data, first)
		}
	}
}
