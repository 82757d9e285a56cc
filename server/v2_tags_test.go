package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPageOptionNames: the names sift sends are the html extractor's.
func tagsOrigin(t *testing.T) *httptest.Server {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/data.json" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"a":1}`)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Garden</title></head><body>
<nav><a href="/shop">Shop the seeds</a></nav>
<main><article><h1>Watering</h1>`+strings.Repeat(`<p>Water the beds early in the morning so the roots drink first.</p>`, 8)+`
<div class="tip">Tip: mulch keeps the soil damp.</div></article></main>
<div hidden>Secret hidden words.</div>
<footer>Copyright the garden club.</footer></body></html>`)
	}))
	t.Cleanup(origin.Close)
	return origin
}

// TestScrapePageOptions: onlyMainContent false, includeTags and
// excludeTags reach the html extractor and change the markdown, each
// combination cached apart; none of them is warned as not applied on an
// HTML page, and on a JSON document all are.
func TestScrapePageOptions(t *testing.T) {
	t.Parallel()
	origin := tagsOrigin(t)
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	tests := []struct {
		name       string
		opts       map[string]any
		kept, gone []string
	}{
		{"main content", nil, []string{"Water the beds early", "mulch keeps"}, []string{"Shop the seeds", "Copyright"}},
		{"whole page", map[string]any{"onlyMainContent": false}, []string{"Shop the seeds", "Water the beds early", "Copyright the garden club"}, []string{"Secret hidden words"}},
		{"exclude", map[string]any{"excludeTags": []string{".tip"}}, []string{"Water the beds early"}, []string{"mulch keeps"}},
		{"include", map[string]any{"includeTags": []string{".tip", "footer"}, "onlyMainContent": false}, []string{"mulch keeps", "Copyright"}, []string{"Water the beds early", "Shop the seeds"}},
		{"main content again, from the cache", nil, []string{"Water the beds early", "mulch keeps"}, []string{"Shop the seeds", "Copyright"}},
	}
	for _, tc := range tests {
		body := map[string]any{"url": origin.URL + "/page"}
		for k, v := range tc.opts {
			body[k] = v
		}
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, body)
		data, _ := out["data"].(map[string]any)
		md, _ := data["markdown"].(string)
		warning, _ := data["warning"].(string)
		if resp.StatusCode != 200 || strings.Contains(warning, "not applied") {
			t.Errorf("%s: %d %v", tc.name, resp.StatusCode, out)
			continue
		}
		for _, k := range tc.kept {
			if !strings.Contains(md, k) {
				t.Errorf("%s: %q missing from %q", tc.name, k, md)
			}
		}
		for _, g := range tc.gone {
			if strings.Contains(md, g) {
				t.Errorf("%s: %q kept in %q", tc.name, g, md)
			}
		}
	}
	_, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/data.json", "onlyMainContent": false, "includeTags": []string{"p"}})
	data, _ := out["data"].(map[string]any)
	if w, _ := data["warning"].(string); !strings.Contains(w, "not applied: onlyMainContent, includeTags (they choose parts of an HTML page") {
		t.Errorf("page options on JSON: %v", out)
	}
}

// TestScrapeBadSelector: a selector of includeTags or excludeTags that
// does not parse is a 400 naming the field and the selector, before any
// fetch; the extractor's own option refuses it as bad_option.
func TestScrapeBadSelector(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	for _, tc := range []struct {
		fields map[string]any
		status int
		want   string
	}{
		{map[string]any{"includeTags": []string{"article", "div["}}, 400, `Bad Request: field "includeTags[1]": "div[" is not a CSS selector`},
		{map[string]any{"excludeTags": []string{"p:nth-child(x)"}}, 400, `Bad Request: field "excludeTags[0]": "p:nth-child(x)" is not a CSS selector`},
		{map[string]any{"siftOptions": map[string]any{"exclude_tags": ">>"}}, 400, `bad_option: exclude_tags: ">>" is not a CSS selector`},
	} {
		body := map[string]any{"url": origin.URL + "/article"}
		for k, v := range tc.fields {
			body[k] = v
		}
		resp, out := post(t, srv.URL+"/v2/scrape", testKey, body)
		if msg, _ := out["error"].(string); resp.StatusCode != tc.status || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: %d %v, want %d %q", tc.fields, resp.StatusCode, out, tc.status, tc.want)
		}
	}
}
