package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/siftd/sift/stages/extract"
)

// TestScrapeLinks: the links format is every http(s) link of the page,
// absolute, without repeats, in page order; a page that is not HTML has
// none.
func TestScrapeLinks(t *testing.T) {
	t.Parallel()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/text" {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "https://example.org/not-a-link")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>L</title></head><body><nav><a href="/home">Home</a></nav><article><h1>L</h1>`+
			`<p>Text with <a href="/docs/one">one</a>, <a href="https://example.org/two">two</a> and <a href="/home">home</a>.</p></article></body></html>`)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	_, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/page", "formats": []string{"links", "html"}})
	data := out["data"].(map[string]any)
	if fmt.Sprint(data["links"]) != fmt.Sprintf("[%s/home %s/docs/one https://example.org/two]", origin.URL, origin.URL) ||
		data["markdown"] != nil || data["warning"] != nil || !strings.Contains(fmt.Sprint(data["html"]), `<a href="`+origin.URL+`/docs/one">one</a>`) {
		t.Fatalf("%v", data)
	}
	_, out = post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/text", "formats": []any{map[string]any{"type": "links"}}})
	if links, ok := out["data"].(map[string]any)["links"].([]any); !ok || len(links) != 0 {
		t.Fatalf("%v", out)
	}
}

// TestScrapeMetadata: the metadata Firecrawl returns: the title from
// <title> (og:title only in ogTitle), the description from <meta
// name="description"> (og:description only in ogDescription), og and twitter tags
// (named and as written), keywords, robots, times, an absolute favicon,
// what the page's JSON-LD says (schema_*), scrapeId, creditsUsed,
// proxyUsed; an origin's 404 sets error and a warning.
func TestScrapeMetadata(t *testing.T) {
	t.Parallel()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/gone" {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `<html><body><article><h1>Not here</h1><p>This page is gone, sorry about that.</p></article></body></html>`)
			return
		}
		fmt.Fprint(w, `<html><head><title>Meta | Site</title><link rel="icon" href="/favicon.png">`+
			`<meta property="og:title" content="OG Meta"><meta property="og:image" content="https://img.example/x.png">`+
			`<meta property="og:site_name" content="Site"><meta name="twitter:card" content="summary_large_image">`+
			`<meta name="keywords" content="a, b"><meta name="robots" content="index, follow">`+
			`<meta property="og:description" content="OG words"><meta name="description" content="The page's own words">`+
			`<meta property="article:published_time" content="2026-01-02T03:04:05Z">`+
			`<meta property="article:modified_time" content="2026-02-03T04:05:06Z">`+
			`<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Widget","offers":{"@type":"Offer","price":"9.99","priceCurrency":"EUR"}}</script></head>`+
			`<body><article><h1>Meta</h1><p>Enough text to count as the main content of this page.</p></article></body></html>`)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	_, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/page"})
	data := out["data"].(map[string]any)
	meta := data["metadata"].(map[string]any)
	want := map[string]any{"title": "Meta | Site", "ogTitle": "OG Meta", "ogImage": "https://img.example/x.png", "ogSiteName": "Site",
		"og:title": "OG Meta", "twitter:card": "summary_large_image", "keywords": "a, b", "robots": "index, follow",
		"description": "The page's own words", "ogDescription": "OG words",
		"publishedTime": "2026-01-02T03:04:05Z", "modifiedTime": "2026-02-03T04:05:06Z",
		"favicon": origin.URL + "/favicon.png", "creditsUsed": 1.0, "proxyUsed": "basic",
		"schema_type": "Product", "schema_name": "Widget", "schema_price": "9.99", "schema_price_currency": "EUR"}
	for k, v := range want {
		if meta[k] != v {
			t.Errorf("metadata %s = %v, want %v", k, meta[k], v)
		}
	}
	if id, _ := meta["scrapeId"].(string); len(id) != 36 || meta["error"] != nil || data["warning"] != nil {
		t.Errorf("scrapeId, error, warning: %v %v", meta, data["warning"])
	}
	_, out = post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/gone"})
	data = out["data"].(map[string]any)
	meta = data["metadata"].(map[string]any)
	if meta["statusCode"] != 404.0 || meta["error"] != "the origin answered 404 Not Found" ||
		!strings.Contains(fmt.Sprint(data["warning"]), "the origin answered 404 Not Found") {
		t.Fatalf("404: %v", data)
	}
}

// TestFirecrawlMap: /v2/map answers the links of the one page on its own
// site, filtered by search and capped by limit; sitemap is named as not
// read; a missing url is a 400.
func TestFirecrawlMap(t *testing.T) {
	t.Parallel()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Docs</title></head><body><article><h1>Docs</h1><p>Links: `+
			`<a href="/docs/install">install</a> <a href="/docs/Config">config</a> <a href="/blog/post">post</a> `+
			`<a href="https://other.example/docs/x">elsewhere</a> <a href="/docs/install">again</a></p></article></body></html>`)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	tests := []struct {
		body map[string]any
		want []string
	}{
		{map[string]any{}, []string{"/docs/install", "/docs/Config", "/blog/post"}},
		{map[string]any{"search": "DOCS"}, []string{"/docs/install", "/docs/Config"}},
		{map[string]any{"limit": 1}, []string{"/docs/install"}},
	}
	for _, tc := range tests {
		tc.body["url"] = origin.URL + "/"
		resp, out := post(t, srv.URL+"/v2/map", testKey, tc.body)
		var got []string
		links, _ := out["links"].([]any)
		for _, l := range links {
			got = append(got, strings.TrimPrefix(l.(map[string]any)["url"].(string), origin.URL))
		}
		if resp.StatusCode != 200 || out["success"] != true || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%v: %d %v", tc.body, resp.StatusCode, out)
		}
	}
	_, out := post(t, srv.URL+"/v2/map", testKey, map[string]any{"url": origin.URL + "/", "sitemap": "only"})
	if !strings.Contains(fmt.Sprint(out["warning"]), "sitemap (sift reads the links of the one page, not the sitemap)") {
		t.Errorf("sitemap: %v", out)
	}
	if resp, out := post(t, srv.URL+"/v2/map", testKey, map[string]any{"search": "x"}); resp.StatusCode != 400 {
		t.Errorf("no url: %d %v", resp.StatusCode, out)
	}
	// A limit Firecrawl's schema refuses is refused (a 400 on v2; v1
	// answers its errors under 200, as 1.x SDKs read them).
	for path, status := range map[string]int{"/v2/map": 400, "/v1/map": 200} {
		for _, limit := range []any{0, -1, 100001} {
			resp, out := post(t, srv.URL+path, testKey, map[string]any{"url": origin.URL + "/", "limit": limit})
			if msg, _ := out["error"].(string); resp.StatusCode != status || out["success"] != false ||
				!strings.Contains(msg, `"limit": want a positive integer, at most 100000`) {
				t.Errorf("%s limit %v: %d %v", path, limit, resp.StatusCode, out)
			}
		}
	}
}

// TestScrapeHTMLFormat: the html format is the clean content as HTML (the
// main content the markdown is made from, links absolute, what no reader
// sees and the scripts gone), chosen by onlyMainContent and the tag
// options as the markdown is; rawHtml stays the page as fetched.
func TestScrapeHTMLFormat(t *testing.T) {
	t.Parallel()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Garden</title><script>var track = 1;</script></head><body>
<nav><a href="/shop">Shop the seeds</a></nav>
<article><h1>Watering</h1>`+strings.Repeat("<p>Water the beds early in the morning so the roots drink before the sun. </p>", 10)+`
<p>See the <a href="/guide">drip guide</a>.</p><p class="tip">Tip: mulch keeps the soil damp.</p>
<p style="display:none">Secret hidden words.</p></article>
<footer>Copyright the garden club.</footer></body></html>`)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	tests := []struct {
		name       string
		fields     map[string]any
		kept, gone []string
	}{
		{"main content", nil,
			[]string{"<h1>Watering</h1>", `<a href="` + origin.URL + `/guide">drip guide</a>`, "mulch keeps"},
			[]string{"Shop the seeds", "Copyright", "Secret hidden words", "var track", "<title>", "<html"}},
		{"whole page", map[string]any{"onlyMainContent": false},
			[]string{`<a href="` + origin.URL + `/shop">Shop the seeds</a>`, "Copyright", "Watering"},
			[]string{"Secret hidden words", "var track", "<title>"}},
		{"excludeTags", map[string]any{"excludeTags": []string{".tip"}},
			[]string{"Watering"}, []string{"mulch keeps"}},
		{"includeTags", map[string]any{"includeTags": []string{".tip"}},
			[]string{"mulch keeps"}, []string{"Watering", "Water the beds"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := map[string]any{"url": origin.URL + "/page", "formats": []string{"html", "rawHtml", "markdown"}}
			for k, v := range tc.fields {
				body[k] = v
			}
			resp, out := post(t, srv.URL+"/v2/scrape", testKey, body)
			if resp.StatusCode != 200 {
				t.Fatalf("%d %v", resp.StatusCode, out)
			}
			data := out["data"].(map[string]any)
			got, _ := data["html"].(string)
			for _, want := range tc.kept {
				if !strings.Contains(got, want) {
					t.Errorf("html lacks %q:\n%s", want, got)
				}
			}
			for _, gone := range tc.gone {
				if strings.Contains(got, gone) {
					t.Errorf("html holds %q:\n%s", gone, got)
				}
			}
			raw, _ := data["rawHtml"].(string)
			if !strings.Contains(raw, "<title>Garden</title>") || !strings.Contains(raw, "Secret hidden words") {
				t.Errorf("rawHtml is not the page as fetched:\n%s", raw)
			}
			if w, _ := data["warning"].(string); strings.Contains(w, "html") {
				t.Errorf("warning %q", w)
			}
		})
	}
}

// A page's head is the page's to write: a megabyte of title and meta
// tags, and more tags than any page needs, are cut, each cut named; tags
// Firecrawl does not report cannot crowd out those it does.
// /v2/scrape names the cuts of the head it reports.
func TestScrapeNamesHeadCuts(t *testing.T) {
	t.Parallel()
	og, heading := strings.Repeat("o", 5000), strings.Repeat("h", 2000)
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/untitled" {
			fmt.Fprint(w, `<html><head></head><body><article><h1>`+heading+`</h1>`+
				`<p>Enough text to count as the main content of this page.</p></article></body></html>`)
			return
		}
		fmt.Fprint(w, `<html><head><title>Short</title><meta property="og:title" content="`+og+`"></head>`+
			`<body><article><h1>Short</h1><p>Enough text to count as the main content of this page.</p></article></body></html>`)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	_, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/page"})
	data := out["data"].(map[string]any)
	meta := data["metadata"].(map[string]any)
	if got, _ := meta["ogTitle"].(string); len(got) != extract.MaxMetadataBytes || meta["title"] != "Short" {
		t.Errorf("ogTitle of %d bytes, title %q", len(got), meta["title"])
	}
	// The extraction's title (og:title, cut too) is not what /v2 shows.
	if w, want := fmt.Sprint(data["warning"]), fmt.Sprintf(`meta tag "og:title" cut at %d of 5000 bytes`, extract.MaxMetadataBytes); w != want {
		t.Errorf("warning %q, want %q", w, want)
	}
	// Without a <title>, /v2 shows the extraction's title, and names its cut.
	_, out = post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/untitled"})
	data = out["data"].(map[string]any)
	meta = data["metadata"].(map[string]any)
	if got, _ := meta["title"].(string); len(got) != extract.MaxTitleBytes ||
		!strings.Contains(fmt.Sprint(data["warning"]), fmt.Sprintf("title cut at %d of 2000 bytes", extract.MaxTitleBytes)) {
		t.Errorf("title of %d bytes, warning %q", len(got), data["warning"])
	}
}

// TestScrapeImages: by default, as Firecrawl's, /v2/scrape's markdown
// keeps the content's images, absolute, without base64 ones (their alt
// text stays); siftOptions images true asks for the same, images false
// leaves them out; the images format lists every image URL the page names
// either way.
func TestScrapeImages(t *testing.T) {
	t.Parallel()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>Pruning</title><meta property="og:image" content="/og.jpg"></head><body><article><h1>Pruning apple trees</h1>`+
			`<p>Apple trees are pruned in late winter, while they are dormant, so that the cuts heal before the sap rises in spring.</p>`+
			`<p><img src="/img/cut.jpg" alt="A cut above a bud"></p>`+
			`<p><img src="/lazy.gif" data-src="img/crown.jpg" alt="The crown"><img src="data:image/png;base64,iVBORw0KGgo=" alt="A ladder"></p>`+
			`<p>Take out the dead and crossing branches first, then thin the crown so that light reaches every part of the tree.</p>`+
			`<img src="https://stats.example/p.gif" width="1" height="1" alt=""></article></body></html>`)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	_, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/guide/page", "formats": []string{"markdown", "images"}})
	data := out["data"].(map[string]any)
	md := fmt.Sprint(data["markdown"])
	for _, want := range []string{"![A cut above a bud](" + origin.URL + "/img/cut.jpg)", "![The crown](" + origin.URL + "/guide/img/crown.jpg)", "A ladder"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "base64") || strings.Contains(md, "stats.example") {
		t.Errorf("markdown keeps a base64 image or a pixel:\n%s", md)
	}
	images := fmt.Sprint(data["images"])
	for _, want := range []string{origin.URL + "/og.jpg", origin.URL + "/img/cut.jpg", origin.URL + "/guide/img/crown.jpg"} {
		if !strings.Contains(images, want) {
			t.Errorf("images lacks %q: %s", want, images)
		}
	}
	if strings.Contains(images, "data:") {
		t.Errorf("images lists a data: URI: %s", images)
	}
	_, out = post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/guide/page", "formats": []string{"markdown"},
		"siftOptions": map[string]any{"images": true}})
	if asked := fmt.Sprint(out["data"].(map[string]any)["markdown"]); asked != md {
		t.Errorf("siftOptions images true: want the default's markdown\n%s\ngot\n%s", md, asked)
	}
	_, out = post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/guide/page", "formats": []string{"markdown", "images"},
		"siftOptions": map[string]any{"images": false}})
	data = out["data"].(map[string]any)
	if md := fmt.Sprint(data["markdown"]); strings.Contains(md, "![") || !strings.Contains(fmt.Sprint(data["images"]), origin.URL+"/img/cut.jpg") || !strings.Contains(md, "thin the crown") {
		t.Errorf("siftOptions images false: %v", data)
	}
}
