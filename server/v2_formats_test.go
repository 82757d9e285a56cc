package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// scrapeData posts a scrape and returns its data, failing unless it is a
// 200 with data.
func scrapeData(t *testing.T, url string, body map[string]any) map[string]any {
	t.Helper()
	resp, out := post(t, url+"/v2/scrape", testKey, body)
	data, _ := out["data"].(map[string]any)
	if resp.StatusCode != 200 || data == nil {
		t.Fatalf("%v: %d %v", body["formats"], resp.StatusCode, out)
	}
	return data
}

// TestScrapeQuestionFormat: the question format's answer is the digest
// made around the question, and the summary beside it a digest without
// it; with no digester the answer is the parts of the page most relevant
// to the question, with a warning that says no LLM answered.
func TestScrapeQuestionFormat(t *testing.T) {
	t.Parallel()
	var busy atomic.Bool
	llm := fakeLLM(t, &busy)
	origin := fixtureOrigin(t)
	withLLM := newTestServer(t, origin, testOptions{extraConfig: digesterBlock(llm.URL)}, `stage "digest" {}`)
	question := map[string]any{"type": "question", "question": "when to water?"}
	data := scrapeData(t, withLLM.URL, map[string]any{"url": origin.URL + "/article", "formats": []any{"markdown", question, "summary"}})
	if data["answer"] != "Digest for when to water?: water early." || data["summary"] != "Digest for none: water early." {
		t.Errorf("answer %q, summary %q", data["answer"], data["summary"])
	}
	if w, _ := data["warning"].(string); strings.Contains(w, "format") {
		t.Errorf("warning %q", w)
	}
	// The query format, firecrawl-mcp's: freeform as a question,
	// directQuote the page's own words about it.
	data = scrapeData(t, withLLM.URL, map[string]any{"url": origin.URL + "/article", "formats": []any{map[string]any{"type": "query", "prompt": "when to water?"}}})
	if data["answer"] != "Digest for when to water?: water early." {
		t.Errorf("query freeform: answer %q", data["answer"])
	}
	data = scrapeData(t, withLLM.URL, map[string]any{"url": origin.URL + "/article", "formats": []any{map[string]any{"type": "query", "prompt": "soil trowel", "mode": "directQuote"}}})
	if answer, _ := data["answer"].(string); !strings.Contains(answer, "Check the soil with a trowel.") {
		t.Errorf("query directQuote: answer %q", answer)
	}
	without := newTestServer(t, origin, testOptions{})
	data = scrapeData(t, without.URL, map[string]any{"url": origin.URL + "/article", "formats": []any{question}})
	answer, _ := data["answer"].(string)
	warning, _ := data["warning"].(string)
	if !strings.Contains(answer, "Water the beds early") || !strings.Contains(warning, "question answered without an LLM: no digester is configured") {
		t.Errorf("without a digester: answer %.80q, warning %q", answer, warning)
	}
}

// TestScrapeFormatObjects: highlights keep the parts of the page about
// the query; attributes list a selector's attribute values in page
// order; each refused or malformed format says why.
func TestScrapeFormatObjects(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/stories", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Stories</title></head><body><main><h1>Stories</h1>`)
		for i := range 40 {
			fmt.Fprintf(w, `<h2>Story %d</h2><p class="story" id="s%d" data-score="%d">Story number %d is about gardens and the weather of spring in the valley.</p>`, i, i, i*10, i)
		}
		fmt.Fprint(w, `<h2>Tools</h2><p class="story">The trowel and the pruning shears hang in the shed.</p></main></body></html>`)
	})
	origin := httptest.NewServer(mux)
	t.Cleanup(origin.Close)
	srv := newTestServer(t, origin, testOptions{})
	page := origin.URL + "/stories"

	data := scrapeData(t, srv.URL, map[string]any{"url": page, "formats": []any{map[string]any{"type": "highlights", "query": "pruning shears trowel"}}})
	hl, _ := data["highlights"].(string)
	if !strings.Contains(hl, "pruning shears") || strings.Contains(hl, "Story number 3 ") || data["markdown"] != nil {
		t.Errorf("highlights %q (markdown %v)", hl, data["markdown"] != nil)
	}

	data = scrapeData(t, srv.URL, map[string]any{"url": page, "formats": []any{map[string]any{"type": "attributes",
		"selectors": []any{map[string]any{"selector": "p.story", "attribute": "id"}, map[string]any{"selector": "[data-score]", "attribute": "data-score"}}}}})
	attrs, _ := data["attributes"].([]any)
	if len(attrs) != 2 {
		t.Fatalf("attributes %v", data["attributes"])
	}
	ids, _ := attrs[0].(map[string]any)["values"].([]any)
	scores, _ := attrs[1].(map[string]any)["values"].([]any)
	if len(ids) != 40 || ids[0] != "s0" || ids[39] != "s39" || len(scores) != 40 || scores[2] != "20" || attrs[0].(map[string]any)["selector"] != "p.story" {
		t.Errorf("attributes %v", attrs)
	}

	for _, tc := range []struct {
		format any
		status int
		want   string
	}{
		{"screenshot", 200, "formats not supported by sift: screenshot (sift runs no browser"},
		{"bogus", 200, "bogus (not a format sift produces)"},
		{map[string]any{"type": "question"}, 400, `field "formats[0].question": required`},
		{map[string]any{"type": "question", "question": "why?", "bogus": 1}, 200, "unknown fields ignored: formats[0].bogus"},
		{map[string]any{"type": "highlights", "query": ""}, 400, `field "formats[0].query": required`},
		{map[string]any{"type": "attributes", "selectors": []any{map[string]any{"selector": "p[", "attribute": "id"}}}, 400, `field "formats[0].selectors[0].selector": not a CSS selector`},
		{map[string]any{"type": "attributes", "selectors": []any{map[string]any{"selector": "p"}}}, 400, `formats[0].selectors[0].attribute": required`},
		{map[string]any{"type": "changeTracking"}, 400, "the changeTracking format requires the markdown format"},
	} {
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": page, "formats": []any{tc.format}})
		msg, _ := out["error"].(string)
		if data, ok := out["data"].(map[string]any); ok {
			msg, _ = data["warning"].(string)
		}
		if resp.StatusCode != tc.status || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: %d %q, want %d %q", tc.format, resp.StatusCode, msg, tc.status, tc.want)
		}
	}
}

// TestScrapeFormatOptionsNotInjected: the field a stored batch target
// keeps its format options in is, sent by a client, an unknown field and
// nothing more: its selectors are never run unchecked.
func TestScrapeFormatOptionsNotInjected(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	data := scrapeData(t, srv.URL, map[string]any{"url": origin.URL + "/article", "formats": []any{"markdown"},
		"siftFormatOptions": map[string]any{"attributes": []any{map[string]any{"selector": "p[", "attribute": "id"}}, "question": "why?"}})
	warning, _ := data["warning"].(string)
	if data["attributes"] != nil || data["answer"] != nil || !strings.Contains(warning, "unknown fields ignored: siftFormatOptions") {
		t.Errorf("attributes %v, answer %v, warning %q", data["attributes"], data["answer"], warning)
	}
}

// TestScrapeChangeTracking: three scrapes of a page answer new, same and
// changed, each with the time of the one before, the last with the
// unified diff of the two markdowns in git-diff mode; a page gone is
// removed; a restricted caller's history is its own.
func TestScrapeChangeTracking(t *testing.T) {
	t.Parallel()
	var version atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/pricing", func(w http.ResponseWriter, _ *http.Request) {
		v := version.Load()
		if v == 3 {
			http.NotFound(w, nil)
			return
		}
		price := map[int32]string{0: "9", 1: "9", 2: "12"}[v]
		w.Header().Set("Content-Type", "text/html")
		// Fresh for weeks by the heuristic of RFC 9111: a change is seen
		// only if change tracking asks the origin past the cache.
		w.Header().Set("Last-Modified", time.Now().AddDate(-1, 0, 0).UTC().Format(http.TimeFormat))
		fmt.Fprintf(w, `<html><head><title>Pricing</title></head><body><main><h1>Pricing</h1><p>Starter costs %s dollars a month.</p><p>Pro costs 29 dollars a month.</p></main></body></html>`, price)
	})
	origin := httptest.NewServer(mux)
	t.Cleanup(origin.Close)
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	body := map[string]any{"url": origin.URL + "/pricing", "formats": []any{"markdown", map[string]any{"type": "changeTracking", "modes": []any{"git-diff"}}}}
	track := func(key string) map[string]any {
		t.Helper()
		resp, out := post(t, srv.URL+"/v2/scrape", key, body)
		data, _ := out["data"].(map[string]any)
		ct, _ := data["changeTracking"].(map[string]any)
		if resp.StatusCode != 200 || ct == nil {
			t.Fatalf("%d %v", resp.StatusCode, out)
		}
		return ct
	}
	first := track(testKey)
	if first["changeStatus"] != "new" || first["previousScrapeAt"] != nil || first["visibility"] != "visible" {
		t.Errorf("first scrape: %v", first)
	}
	version.Store(1)
	second := track(testKey)
	if second["changeStatus"] != "same" || second["previousScrapeAt"] == nil || second["diff"] != nil {
		t.Errorf("second scrape: %v", second)
	}
	version.Store(2)
	third := track(testKey)
	diff, _ := third["diff"].(map[string]any)
	text, _ := diff["text"].(string)
	if third["changeStatus"] != "changed" || !strings.Contains(text, "-Starter costs 9 dollars a month.\n+Starter costs 12 dollars a month.") {
		t.Errorf("third scrape: %v", third)
	}
	if files, _ := diff["json"].(map[string]any)["files"].([]any); len(files) != 1 {
		t.Errorf("diff json %v", diff["json"])
	}
	// The restricted caller has no history of the page yet.
	if own := track(quietKey); own["changeStatus"] != "new" {
		t.Errorf("a restricted caller saw another's history: %v", own)
	}
	version.Store(3)
	if gone := track(testKey); gone["changeStatus"] != "removed" {
		t.Errorf("the page gone: %v", gone)
	}
}

// TestScrapeRepeatedFormats: two highlights formats answer the first's
// query, and the answer's warning names the second with its query.
func TestScrapeRepeatedFormats(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	data := scrapeData(t, srv.URL, map[string]any{"url": origin.URL + "/article", "formats": []any{
		map[string]any{"type": "highlights", "query": "trowel soil"}, map[string]any{"type": "highlights", "query": "drip guide"}}})
	hl, _ := data["highlights"].(string)
	warning, _ := data["warning"].(string)
	if !strings.Contains(hl, "trowel") || !strings.Contains(warning, `not applied: formats[1] (highlights "drip guide")`) {
		t.Errorf("highlights %q, warning %q", hl, warning)
	}
}
