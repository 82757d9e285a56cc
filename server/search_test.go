package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/search"
)

// fakeSearXNG answers with a recorded SearXNG response, or fails.
func fakeSearXNG(t *testing.T, status int) (*httptest.Server, *search.Service) {
	t.Helper()
	body, err := os.ReadFile("../search/testdata/searxng.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		if status == 200 {
			w.Write(body)
		}
	}))
	t.Cleanup(srv.Close)
	port := int(netip.MustParseAddrPort(srv.Listener.Addr().String()).Port())
	svc := search.New(&config.Search{
		Timeout: 5 * time.Second, SearXNG: &config.SearXNG{URL: srv.URL},
		AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, AllowPorts: []int{port},
	}, nil)
	return srv, svc
}

func TestFirecrawlSearch(t *testing.T) {
	t.Parallel()
	_, svc := fakeSearXNG(t, 200)
	srv := newTestServer(t, fixtureOrigin(t), testOptions{Search: svc})
	resp, body := post(t, srv.URL+"/v2/search", testKey, map[string]any{"query": "reverse proxy nginx", "limit": 2, "origin": "js-sdk"})
	if resp.StatusCode != 200 || body["success"] != true {
		t.Fatalf("%d %v", resp.StatusCode, body)
	}
	web := body["data"].(map[string]any)["web"].([]any)
	first := web[0].(map[string]any)
	if len(web) != 2 || first["title"] != "Module ngx_http_proxy_module" || first["position"] != 1.0 ||
		!strings.HasPrefix(first["description"].(string), "The ngx_http_proxy_module") {
		t.Fatalf("web %v", web)
	}
	for _, scrapeKey := range []string{"markdown", "html", "metadata"} {
		if _, ok := first[scrapeKey]; ok {
			t.Errorf("result carries %q without scrapeOptions", scrapeKey)
		}
	}
	if id, _ := body["id"].(string); len(id) != 36 || body["creditsUsed"] != 1.0 || strings.Contains(fmt.Sprint(body["warning"]), "not applied") {
		t.Errorf("id, creditsUsed, warning: %v", body)
	}
	// A Firecrawl client never asked to rerank: no embedder, no warning.
	if strings.Contains(fmt.Sprint(body["warning"]), "rerank") {
		t.Errorf("warning %q speaks of a rerank nobody asked for", body["warning"])
	}
	// Firecrawl's defaults and refusals: 5 results unless asked; fields
	// sift does not apply named in the warning; a field of the wrong type
	// a 400 naming it.
	many := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		var results []string
		for i := range 8 {
			results = append(results, fmt.Sprintf(`{"url":"https://example.org/%d","title":"T%d","content":"c"}`, i, i))
		}
		fmt.Fprintf(w, `{"query":"q","results":[%s],"answers":[],"infoboxes":[],"unresponsive_engines":[]}`, strings.Join(results, ","))
	}))
	defer many.Close()
	srv = newTestServer(t, fixtureOrigin(t), testOptions{Search: search.New(&config.Search{Timeout: 5 * time.Second,
		SearXNG: &config.SearXNG{URL: many.URL}, AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		AllowPorts: []int{int(netip.MustParseAddrPort(many.Listener.Addr().String()).Port())}}, nil)})
	_, body = post(t, srv.URL+"/v2/search", testKey, map[string]any{"query": "reverse proxy nginx",
		"sources": []string{"web", "news"}, "tbs": "qdr:d", "sift": 1})
	web = body["data"].(map[string]any)["web"].([]any)
	warning, _ := body["warning"].(string)
	if len(web) != 5 || !strings.Contains(warning, `not applied: sources "news" (sift searches the web only)`) ||
		!strings.Contains(warning, "tbs (not supported by sift)") || !strings.Contains(warning, "unknown fields ignored: sift") {
		t.Errorf("%d results, warning %q", len(web), warning)
	}
	// firecrawl-mcp's defaults: the web searched, the rest named once;
	// its web-only fallback draws nothing.
	for _, tc := range []struct {
		fields map[string]any
		want   string
	}{
		{map[string]any{"sources": []any{"web", "alexandria"}, "domainTools": true, "toolDetail": "compact"},
			`not applied: sources "alexandria" (Firecrawl's catalogue of data providers), domainTools, toolDetail (sift searches the web only)`},
		{map[string]any{"sources": []any{"web"}, "domainTools": false, "toolDetail": "compact"}, ""},
		{map[string]any{"sources": []any{map[string]any{"type": "web"}}}, ""},
		{map[string]any{"sources": []any{"alexandria"}, "toolDetail": "full"},
			`not applied: sources "alexandria" (Firecrawl's catalogue of data providers), toolDetail (sift searches the web only; web results stand in)`},
	} {
		tc.fields["query"] = "reverse proxy nginx"
		resp, body := post(t, srv.URL+"/v2/search", testKey, tc.fields)
		warning, _ := body["warning"].(string)
		web, _ := body["data"].(map[string]any)["web"].([]any)
		if resp.StatusCode != 200 || len(web) != 5 || warning != tc.want {
			t.Errorf("%v: %d, %d results, warning %q; want %q", tc.fields, resp.StatusCode, len(web), warning, tc.want)
		}
	}
	resp, body = post(t, srv.URL+"/v2/search", testKey, map[string]any{"query": "q", "limit": "3"})
	if msg, _ := body["error"].(string); resp.StatusCode != 400 || !strings.HasPrefix(msg, `Bad Request: field "limit": want an integer`) {
		t.Errorf("limit as a string: %d %v", resp.StatusCode, body)
	}
}

func TestNativeSearch(t *testing.T) {
	t.Parallel()
	_, svc := fakeSearXNG(t, 200)
	srv := newTestServer(t, fixtureOrigin(t), testOptions{Search: svc})
	resp, body := post(t, srv.URL+"/v1/search", testKey, map[string]any{"query": "reverse proxy nginx", "k": 3})
	if resp.StatusCode != 200 {
		t.Fatalf("%d %v", resp.StatusCode, body)
	}
	results := body["results"].([]any)
	first := results[0].(map[string]any)
	if len(results) != 3 || first["source"] != "searxng" || first["url"] == "" || body["untrusted"] != true {
		t.Fatalf("results %v", body)
	}
	warnings, _ := json.Marshal(body["warnings"])
	if !strings.Contains(string(warnings), "rerank not configured") || !strings.Contains(string(warnings), "engine google did not answer") {
		t.Fatalf("warnings %s", warnings)
	}
	if answers, _ := body["answers"].([]any); len(answers) != 1 || answers[0] != "nginx is a web server" {
		t.Fatalf("answers %v", body["answers"])
	}
}

// TestFirecrawlSearchScrapeOptions: with scrapeOptions each result is
// scraped through the guarded chain and carries its markdown and
// metadata; a result the guard refuses keeps its url and title and is a
// warning; options sift does not apply are named once.
func TestFirecrawlSearchScrapeOptions(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	sx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"query":"q","results":[
			{"url":%q,"title":"Irrigation","content":"drip"},
			{"url":"http://10.0.0.5/internal","title":"Internal","content":"x"}],
			"answers":[],"infoboxes":[],"unresponsive_engines":[]}`, origin.URL+"/article")
	}))
	defer sx.Close()
	svc := search.New(&config.Search{Timeout: 5 * time.Second, SearXNG: &config.SearXNG{URL: sx.URL},
		AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		AllowPorts: []int{int(netip.MustParseAddrPort(sx.Listener.Addr().String()).Port())}}, nil)
	srv := newTestServer(t, origin, testOptions{Search: svc})
	_, body := post(t, srv.URL+"/v2/search", testKey, map[string]any{"query": "q",
		"scrapeOptions": map[string]any{"formats": []string{"markdown", "links"}, "waitFor": 500}})
	web := body["data"].(map[string]any)["web"].([]any)
	first, second := web[0].(map[string]any), web[1].(map[string]any)
	md, _ := first["markdown"].(string)
	meta, _ := first["metadata"].(map[string]any)
	if !strings.HasPrefix(md, "# Irrigation") || meta["title"] != "Irrigation" || first["links"] == nil {
		t.Errorf("first result %v", first)
	}
	if second["title"] != "Internal" || second["markdown"] != nil {
		t.Errorf("refused result %v", second)
	}
	warning, _ := body["warning"].(string)
	if !strings.Contains(warning, "http://10.0.0.5/internal: blocked: private address 10.0.0.5") ||
		strings.Count(warning, "waitFor") != 1 || !strings.Contains(warning, "scrapeOptions: not applied: waitFor") {
		t.Errorf("warning %q", warning)
	}
	resp, body := post(t, srv.URL+"/v2/search", testKey, map[string]any{"query": "q", "scrapeOptions": map[string]any{"formats": "markdown"}})
	if msg, _ := body["error"].(string); resp.StatusCode != 400 || !strings.HasPrefix(msg, `Bad Request: scrapeOptions: field "formats"`) {
		t.Errorf("formats as a string: %d %v", resp.StatusCode, body)
	}
}

func TestSearchFailures(t *testing.T) {
	t.Parallel()
	_, broken := fakeSearXNG(t, 500)
	srv := newTestServer(t, fixtureOrigin(t), testOptions{Search: broken})
	resp, body := post(t, srv.URL+"/v1/search", testKey, map[string]any{"query": "q"})
	if resp.StatusCode != 502 || !strings.HasPrefix(body["error"].(string), "upstream: no search backend answered") {
		t.Fatalf("every backend failing: %d %v", resp.StatusCode, body)
	}
	none := newTestServer(t, fixtureOrigin(t), testOptions{})
	resp, body = post(t, none.URL+"/v1/search", testKey, map[string]any{"query": "q"})
	if resp.StatusCode != 501 || !strings.HasPrefix(body["error"].(string), "not_configured") {
		t.Fatalf("not configured: %d %v", resp.StatusCode, body)
	}
	resp, body = post(t, none.URL+"/v2/search", testKey, map[string]any{"query": "q"})
	if resp.StatusCode != 500 || body["code"] != "NOT_CONFIGURED" {
		t.Fatalf("v2 not configured: %d %v", resp.StatusCode, body)
	}
}

// TestSearchDigestReadsTopResults: with digest, the top results are fetched
// through the guarded chain and their clean text joined; a result the guard
// refuses is skipped with a warning. With a digester, the joined text is
// digested around the question; with the digester busy, the joined text
// stands in with the fallback warning.
func TestSearchDigestReadsTopResults(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	sx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"query":"q","results":[
			{"url":%q,"title":"Irrigation","content":"drip"},
			{"url":"http://10.0.0.5/internal","title":"Internal","content":"x"},
			{"url":%q,"title":"Data","content":"json"}],
			"answers":[],"infoboxes":[],"unresponsive_engines":[]}`, origin.URL+"/article", origin.URL+"/data.json")
	}))
	defer sx.Close()
	svc := search.New(&config.Search{Timeout: 5 * time.Second, SearXNG: &config.SearXNG{URL: sx.URL},
		AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		AllowPorts: []int{int(netip.MustParseAddrPort(sx.Listener.Addr().String()).Port())}}, nil)
	var busy atomic.Bool
	llm := fakeLLM(t, &busy)
	tests := []struct {
		name, config, wantWarning string
		busy, joined              bool
	}{
		{name: "no digester", joined: true, wantWarning: "digest not configured"},
		{name: "digester", config: digesterBlock(llm.URL)},
		{name: "digester busy", config: digesterBlock(llm.URL), busy: true, joined: true, wantWarning: "digest fell back to clean: busy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			busy.Store(tt.busy)
			srv := newTestServer(t, origin, testOptions{Search: svc, PerHost: 4, extraConfig: tt.config})
			resp, body := post(t, srv.URL+"/v1/search", testKey, map[string]any{"query": "q", "question": "when to water?", "digest": true, "rerank": false})
			if resp.StatusCode != 200 {
				t.Fatalf("%d %v", resp.StatusCode, body)
			}
			digest, _ := body["digest"].(string)
			warnings, _ := json.Marshal(body["warnings"])
			if !strings.Contains(string(warnings), "blocked: private address 10.0.0.5") || !strings.Contains(string(warnings), tt.wantWarning) {
				t.Fatalf("warnings %s", warnings)
			}
			if !tt.joined {
				if digest != "Digest for when to water?: water early." {
					t.Fatalf("digest %q", digest)
				}
				return
			}
			if !strings.Contains(digest, "## Irrigation") || !strings.Contains(digest, "Check the soil with a trowel.") ||
				!strings.Contains(digest, `"name": "nut"`) || strings.Contains(digest, "Internal") {
				t.Fatalf("digest %q", digest)
			}
		})
	}
}
