package html

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/siftd/sift/plugins/sdk"
)

// TestDeepNestingIsFlattened: x/net/html refuses a page whose open
// elements pass 512; such a page must still yield its text, with a
// warning that the nesting was flattened.
func TestDeepNestingIsFlattened(t *testing.T) {
	const para = "<p>The harbour master posts the tide tables each morning beside the ferry office, and fishermen read them before they sail.</p>"
	tests := []struct{ name, page string }{
		{"100k nested divs", "<html><body>" + strings.Repeat("<div>", 100_000) + para + strings.Repeat("</div>", 100_000) + "</body></html>"},
		{"600 unclosed divs", "<html><body><main>" + strings.Repeat(`<div class="post">`+para, 600) + "</main></body></html>"},
		{"nested tables", "<html><body>" + strings.Repeat("<table><td>", 300) + para + "</body></html>"},
		{"deep spans in a script", "<html><body>" + strings.Repeat("<span>", 600) + "<script>var tide = 'LOW';</script>" + para + "</body></html>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := html.Parse(strings.NewReader(tt.page)); err == nil {
				t.Fatal("x/net/html parses the page: the test no longer tests the fallback")
			}
			res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(tt.page), ContentType: "text/html"})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, "The harbour master posts the tide tables") {
				t.Errorf("content lacks the text:\n%.300s", res.Content)
			}
			if i := strings.Index(res.Content, "sail.The"); i >= 0 {
				t.Errorf("two paragraphs ran together: %q", res.Content[max(i-40, 0):i+40])
			}
			if strings.Contains(res.Content, "LOW") {
				t.Errorf("a script reached the content:\n%.300s", res.Content)
			}
			// A page still nested hundreds deep once flattened may also
			// pass the nesting bound (bounded.go), with a warning of its
			// own.
			flattened := 0
			for _, w := range res.Warnings {
				switch {
				case strings.Contains(w, "were flattened"):
					flattened++
				case !strings.Contains(w, "too deep to seek its main content"):
					t.Errorf("unexpected warning %q", w)
				}
			}
			if flattened != 1 {
				t.Errorf("warnings %q, want one saying the nesting was flattened", res.Warnings)
			}
		})
	}
}

// TestFlattenKeepsShallowPages: a page within the depth comes out of
// flatten byte for byte.
func TestFlattenKeepsShallowPages(t *testing.T) {
	for _, page := range []string{
		"<!DOCTYPE html><html><head><title>a</title><style>p{}</style></head><body><div><p>x<br>y</p><img src=a.png></div><script>if (a<b) {}</script></body></html>",
		"<p>unclosed <b>bold <i>it</p><div></span></div>",
	} {
		if got := flatten(page, 256); got != page {
			t.Errorf("flatten(%q) = %q", page, got)
		}
	}
}

// FuzzFlatten: whatever the page, flatten's output parses, and flatten
// never outgrows its input.
func FuzzFlatten(f *testing.F) {
	for _, seed := range []string{
		strings.Repeat("<div>", 600),
		strings.Repeat("<table><td>", 300),
		strings.Repeat("<b><p>", 400),
		strings.Repeat("<svg><g>", 300) + "<script>x",
		"<div></div></div><p><p></p>",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, page string) {
		if _, err := html.Parse(strings.NewReader(page)); err == nil {
			return
		}
		if _, _, err := parseNested(page); err != nil {
			t.Fatalf("flattened page still refused: %v", err)
		}
		if out := flatten(page, flattenDepths[0]); len(out) > len(page) {
			t.Fatalf("flatten grew the page from %d to %d bytes", len(page), len(out))
		}
	})
}
