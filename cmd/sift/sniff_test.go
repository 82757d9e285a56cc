package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	testRSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Release notes</title>
<item><title>v1.2</title><link>https://example.com/v1.2</link></item>
<item><title>v1.1</title><link>https://example.com/v1.1</link></item>
</channel></rss>`
	testAtom = `<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>
<entry><title>Hello</title><link href="https://example.com/hello"/></entry>
</feed>`
	testCatalog = `<?xml version="1.0"?><catalog><book>Go</book></catalog>`
)

// TestSniffedFeedsReachTheFeedPlugin: an operator's feed plugin (a real
// binary, pinned and served by sift serve) declares that it sniffs
// application/xml and text/xml for rss and feed roots, as the built-in
// feed extractor does; its rules go first, so a feed served as text/xml or
// application/xml reaches it, other XML served the same way stays with the
// built-in routing, and sift extract routes a document the same way.
func TestSniffedFeedsReachTheFeedPlugin(t *testing.T) {
	bin, sum := buildPlugin(t, filepath.Join("testdata", "sift-feed"), "sift-feed")
	bodies := map[string][2]string{
		"/rss":     {"text/xml; charset=utf-8", testRSS},
		"/atom":    {"application/xml", testAtom},
		"/catalog": {"text/xml", testCatalog},
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := bodies[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", b[0])
		_, _ = w.Write([]byte(b[1]))
	}))
	t.Cleanup(origin.Close)
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	block := fmt.Sprintf("extractor \"feed\" {\n  command = [%q]\n  sha256  = %q\n}\n", bin, sum)
	addr := serveConfig(t, port, block)

	tests := []struct {
		path, want string
	}{
		{"/rss", "# Release notes\n\n- [v1.2](https://example.com/v1.2)\n- [v1.1](https://example.com/v1.1)"},
		{"/atom", "# Blog\n\n- [Hello](https://example.com/hello)"},
	}
	for _, tc := range tests {
		var out struct {
			Content  string
			Metadata map[string]string
			Error    string
		}
		url := fmt.Sprintf("http://127.0.0.1:%d%s", port, tc.path)
		if code := postJSON(t, addr, "/v1/fetch", map[string]any{"url": url}, &out); code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", tc.path, code, out.Error)
		}
		if strings.TrimSpace(out.Content) != tc.want {
			t.Errorf("%s: content %q, want the feed plugin's %q", tc.path, out.Content, tc.want)
		}
	}
	var out struct {
		Content string
		Error   string
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/catalog", port)
	if code := postJSON(t, addr, "/v1/fetch", map[string]any{"url": url}, &out); code != http.StatusOK {
		t.Fatalf("/catalog: status %d: %s", code, out.Error)
	}
	if !strings.Contains(out.Content, "<book>Go</book>") {
		t.Errorf("/catalog: content %q, want the text extractor's copy of the XML", out.Content)
	}

	cfg := filepath.Join(t.TempDir(), "config.hcl")
	if err := os.WriteFile(cfg, []byte(block), 0o600); err != nil {
		t.Fatal(err)
	}
	for body, want := range map[string]string{testRSS: "- [v1.2](https://example.com/v1.2)", testCatalog: "<book>Go</book>"} {
		stdout, stderr, code := runSift(t, []byte(body), "extract", "--config", cfg, "--type", "text/xml", "-")
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("sift extract --type text/xml: exit %d, output %q, want %q\n%s", code, stdout, want, stderr)
		}
	}
}
