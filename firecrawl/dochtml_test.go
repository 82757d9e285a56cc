package firecrawl

import (
	"strings"
	"testing"

	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/stages"
)

// TestHTMLOfADocument: the html format of a document that is not a page is
// HTML of its structure (its markdown rendered), with the document's own
// raw HTML left out; text that is not markdown stays in a <pre> with a note.
func TestHTMLOfADocument(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, contentType, format, content string
		want, wantNot                      []string
		note                               bool
	}{
		{name: "docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", format: "markdown",
			content: "# Report\n\n1. first\n2. second\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nSee [the site](https://example.org/).\n\n<script>alert(1)</script>\n",
			want:    []string{"<h1>Report</h1>", "<ol>", "<li>first</li>", "<table>", "<td>1</td>", `<a href="https://example.org/">the site</a>`},
			wantNot: []string{"<script>"}},
		{name: "json", contentType: "application/json", format: "json", content: `{"a": "<b>"}`,
			want: []string{"<pre>", "&lt;b&gt;"}, note: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			doc := &stages.Doc{
				Request:    stages.Request{URL: "https://example.org/doc"},
				Response:   &stages.Response{FinalURL: "https://example.org/doc", Status: 200, ContentType: c.contentType, Body: []byte("x")},
				Extraction: &stages.Extraction{Content: c.content, Format: c.format},
			}
			out := scrapeAnswer(&scrapeRequest{URL: doc.Request.URL, scrapeOptions: scrapeOptions{Formats: []scrapeFormat{"html"}}},
				&service.Result{Doc: doc})
			if out.HTML == nil {
				t.Fatal("no html in the answer")
			}
			for _, w := range c.want {
				if !strings.Contains(*out.HTML, w) {
					t.Errorf("html lacks %q:\n%s", w, *out.HTML)
				}
			}
			for _, w := range c.wantNot {
				if strings.Contains(*out.HTML, w) {
					t.Errorf("html holds %q:\n%s", w, *out.HTML)
				}
			}
			noted := strings.Contains(out.Warning, "not a page")
			if noted != c.note {
				t.Errorf("warning %q: a note %v, want %v", out.Warning, noted, c.note)
			}
		})
	}
}

// TestRawHTMLOfABinaryDocument: rawHtml of a DOCX is no text to show: it
// is empty and named in the warning, not the zip's bytes as replacement
// characters; a feed served as octet-stream is text, shown as fetched.
func TestRawHTMLOfABinaryDocument(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, contentType string
		body              []byte
		want              string
	}{
		{"docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", []byte("PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00\xdf\xa4\xd2lZ\x01"), ""},
		{"feed as octet-stream", "application/octet-stream", []byte("<?xml version=\"1.0\"?><rss><channel><title>T</title></channel></rss>"), "<rss>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			doc := &stages.Doc{
				Request:    stages.Request{URL: "https://example.org/doc"},
				Response:   &stages.Response{FinalURL: "https://example.org/doc", Status: 200, ContentType: c.contentType, Body: c.body},
				Extraction: &stages.Extraction{Content: "# T", Format: "markdown"},
			}
			out := scrapeAnswer(&scrapeRequest{URL: doc.Request.URL, scrapeOptions: scrapeOptions{Formats: []scrapeFormat{"rawHtml"}}},
				&service.Result{Doc: doc})
			if out.RawHTML == nil || !strings.Contains(*out.RawHTML, c.want) || c.want == "" && *out.RawHTML != "" {
				t.Fatalf("rawHtml %v, want it to hold %q", out.RawHTML, c.want)
			}
			if named := strings.Contains(out.Warning, "not text: its bytes are not shown"); named != (c.want == "") {
				t.Errorf("warning %q", out.Warning)
			}
		})
	}
}
