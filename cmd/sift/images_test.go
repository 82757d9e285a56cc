package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// imagePage is an article with a figure (an image and its caption) between
// its paragraphs and a chart inlined as a data: URI; inlined is the page
// with one more data: image, of more than the 64 KiB a kept one may be.
const (
	smallChart = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg=="
	imagePage  = `<html><head><title>Images</title></head><body><article><h1>A page with images</h1>
<p>The first paragraph of the article, long enough to be read as its content by the extractor.</p>
<figure><img src="/photo.jpg" alt="A harbour at dawn" width="800" height="600"><figcaption>The harbour, photographed at dawn.</figcaption></figure>
<p>The second paragraph follows the figure, and it too is long enough to belong to the content.</p>
<p>A chart: <img src="` + smallChart + `" alt="inline chart" width="300" height="200"> ends here.</p>
<p>The third paragraph closes the article with a few more words for the extractor to weigh.</p>
%s</article></body></html>`
)

// TestImagesAcrossAPIs: through the real server, its html plugin process
// and a cache after extract, a Firecrawl scrape's markdown holds the
// page's images and figure captions by default while /v1/fetch's holds
// neither unless asked; the two defaults are cache entries of their own,
// /v1/fetch's images: true reads the scrape's. siftOptions images false
// leaves the images out; removeBase64Images false keeps an inlined image
// and warns of one too large to keep, true (the default) leaves its alt
// text.
func TestImagesAcrossAPIs(t *testing.T) {
	var hits atomic.Int64
	big := `<p>A photograph inlined whole: <img src="data:image/jpeg;base64,` + strings.Repeat("A", 70<<10) + `" alt="the quay" width="640" height="480"> closes it.</p>`
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		extra := ""
		if r.URL.Path == "/inlined.html" {
			extra = big
		}
		fmt.Fprintf(w, imagePage, extra)
	}))
	t.Cleanup(origin.Close)
	addr, _ := startSiftPipeline(t, origin, `stage "cache" {}`, "")
	page := origin.URL + "/article.html"
	photo := "![A harbour at dawn](" + origin.URL + "/photo.jpg)"
	const caption = "The harbour, photographed at dawn."

	fetch := func(body map[string]any) (string, bool) {
		t.Helper()
		var out struct {
			Content string `json:"content"`
			Source  struct {
				Cached bool `json:"cached"`
			} `json:"source"`
		}
		if code := postJSON(t, addr, "/v1/fetch", body, &out); code != http.StatusOK {
			t.Fatalf("/v1/fetch %v: status %d", body, code)
		}
		return out.Content, out.Source.Cached
	}
	type scraped struct{ markdown, html, cacheState, warning string }
	scrape := func(body map[string]any) scraped {
		t.Helper()
		var out struct {
			Data struct {
				Markdown string `json:"markdown"`
				HTML     string `json:"html"`
				Warning  string `json:"warning"`
				Metadata struct {
					CacheState string `json:"cacheState"`
				} `json:"metadata"`
			} `json:"data"`
		}
		if code := postJSON(t, addr, "/v2/scrape", body, &out); code != http.StatusOK {
			t.Fatalf("/v2/scrape %v: status %d", body, code)
		}
		return scraped{out.Data.Markdown, out.Data.HTML, out.Data.Metadata.CacheState, out.Data.Warning}
	}

	plain, _ := fetch(map[string]any{"url": page})
	if strings.Contains(plain, "![") || strings.Contains(plain, caption) || !strings.Contains(plain, "second paragraph") {
		t.Fatalf("/v1/fetch without images: want the text, no image, no caption:\n%s", plain)
	}
	def := scrape(map[string]any{"url": page})
	if !strings.Contains(def.markdown, photo) || !strings.Contains(def.markdown, caption) {
		t.Fatalf("/v2/scrape: want the image %q and its caption:\n%s", photo, def.markdown)
	}
	if strings.Contains(def.markdown, "data:") || !strings.Contains(def.markdown, "inline chart") {
		t.Fatalf("/v2/scrape, removeBase64Images unset: want the inlined image's alt text alone:\n%s", def.markdown)
	}
	if def.cacheState != "miss" || hits.Load() != 2 {
		t.Fatalf("/v2/scrape after /v1/fetch: cacheState %q, %d origin requests: want an entry of its own", def.cacheState, hits.Load())
	}
	if pictured, cached := fetch(map[string]any{"url": page, "images": true}); pictured != def.markdown || !cached || hits.Load() != 2 {
		t.Fatalf("/v1/fetch images:true: want the scrape's entry (cached %v, %d origin requests) and markdown\n%s\ngot\n%s", cached, hits.Load(), def.markdown, pictured)
	}
	if again, cached := fetch(map[string]any{"url": page}); again != plain || !cached {
		t.Fatalf("/v1/fetch again: cached %v, content changed: %v", cached, again != plain)
	}
	if off := scrape(map[string]any{"url": page, "siftOptions": map[string]any{"images": false}}); strings.Contains(off.markdown, "![") || !strings.Contains(off.markdown, "second paragraph") {
		t.Fatalf("/v2/scrape siftOptions images false: want the text without images:\n%s", off.markdown)
	}
	if h := scrape(map[string]any{"url": page, "formats": []string{"html"}}); !strings.Contains(h.html, `<img src="`+origin.URL+`/photo.jpg"`) || !strings.Contains(h.html, caption) {
		t.Fatalf("/v2/scrape html: want the image and its caption:\n%s", h.html)
	}
	if dropped := scrape(map[string]any{"url": page, "removeBase64Images": true}); dropped.markdown != def.markdown {
		t.Fatalf("/v2/scrape removeBase64Images true: want the default's markdown\n%s\ngot\n%s", def.markdown, dropped.markdown)
	}
	kept := scrape(map[string]any{"url": origin.URL + "/inlined.html", "removeBase64Images": false})
	if !strings.Contains(kept.markdown, "![inline chart]("+smallChart+")") || !strings.Contains(kept.markdown, photo) {
		t.Fatalf("/v2/scrape removeBase64Images false: want the small inlined image kept:\n%.2000s", kept.markdown)
	}
	if strings.Contains(kept.markdown, "AAAAAAAAAAAA") || !strings.Contains(kept.markdown, "the quay") ||
		!strings.Contains(kept.warning, "1 base64 images over 64 KiB each were left out (their alt text stays)") {
		t.Fatalf("/v2/scrape removeBase64Images false: want the large one its alt text, with a warning; warning %q:\n%.2000s", kept.warning, kept.markdown)
	}
}
