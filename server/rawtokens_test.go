package server

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/siftd/sift/internal/testkit/testenv"
)

// TestRawTokensOfABinaryDocument: the raw_tokens of a document that is no
// text (a PDF, an image) are the tokens of the whole text extracted from
// it, clean_tokens, not its bytes counted as text (the 675 KB PDF here was
// raw_tokens 447,998 for 7,991 of text); a page's raw_tokens are still
// its body's, above its clean text's. Firecrawl's metadata.sift.tokens.raw
// is the same count.
func TestRawTokensOfABinaryDocument(t *testing.T) {
	t.Parallel()
	files := map[string]struct{ path, contentType string }{
		"/paper.pdf": {filepath.Join("..", "plugins", "pdf", "testdata", "pdfjs-TAMReview.pdf"), "application/pdf"},
		"/title.png": {filepath.Join("..", "plugins", "ocr", "testdata", "title.png"), "image/png"},
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/page" {
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte(`<html><head><title>T</title><script>var a = "a script the clean text leaves out, and its tokens";</script>` +
				`<style>body { color: red; margin: 0 auto; }</style></head><body><nav><a href="/a">A</a> <a href="/b">B</a></nav>` +
				`<article><h1>Title</h1><p>The one paragraph of the page, long enough to be its content and read as such.</p></article></body></html>`))
			return
		}
		f, ok := files[r.URL.Path]
		body, err := os.ReadFile(f.path)
		if !ok || err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", f.contentType)
		_, _ = w.Write(body)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	for _, tc := range []struct {
		path   string
		binary bool
		ocr    bool // needs tesseract
	}{
		{"/paper.pdf", true, false},
		{"/title.png", true, true},
		{"/page", false, false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if tc.ocr {
				testenv.NeedCommand(t, "tesseract", "apt-get install tesseract-ocr tesseract-ocr-eng")
			}
			resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + tc.path})
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%d %v", resp.StatusCode, body)
			}
			sizes := body["sizes"].(map[string]any)
			raw, clean := sizes["raw_tokens"].(float64), sizes["clean_tokens"].(float64)
			src := body["source"].(map[string]any)
			t.Logf("%s: %v bytes, raw_tokens %v, clean_tokens %v", tc.path, src["bytes"], raw, clean)
			if clean <= 0 || (tc.binary && raw != clean) || (!tc.binary && raw <= clean) {
				t.Errorf("raw_tokens %v, clean_tokens %v: want raw = clean for a binary document, raw > clean for a page", raw, clean)
			}
			resp, scraped := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + tc.path})
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("scrape: %d %v", resp.StatusCode, scraped)
			}
			tokens := scraped["data"].(map[string]any)["metadata"].(map[string]any)["sift"].(map[string]any)["tokens"].(map[string]any)
			if tokens["raw"] != raw {
				t.Errorf("scrape's tokens.raw %v, fetch's raw_tokens %v", tokens["raw"], raw)
			}
		})
	}
}
