package html

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// TestOutputCapClosesFence: a page cut at the output cap ends at a line
// end, its code fence closed, within the cap; a 4 MB <pre> was cut
// mid-line with its fence left open.
func TestOutputCapClosesFence(t *testing.T) {
	var lines strings.Builder
	for i := range 2_000 {
		fmt.Fprintf(&lines, "line %d of the listing: x = y + %d;\n", i, i)
	}
	intro := `<p>The whole listing of the program follows, as the compiler printed it for the record of the run.</p>`
	wholeLine := regexp.MustCompile(`^(> )?line \d+ of the listing: x = y \+ \d+;$`)
	for _, tc := range []struct {
		name, body, closing string
		opts                map[string]string
	}{
		{"a listing", intro + `<pre><code>` + lines.String() + `</code></pre>`, "```", nil},
		{"a listing in a quote", intro + `<blockquote><p>As the compiler printed it:</p><pre><code>` + lines.String() + `</code></pre></blockquote>`, "> ```", nil},
		{"the whole page", intro + `<pre><code>` + lines.String() + `</code></pre>`, "```", map[string]string{OptionMainContent: "false"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<html><head><title>Listing</title></head><body><article><h1>Listing</h1>` + tc.body + `</article></body></html>`
			const maxOut = 10_000
			res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(page), ContentType: "text/html",
				URL: "https://example.com/", MaxOutputBytes: maxOut, Options: tc.opts})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Content) > maxOut || len(res.Content) < maxOut-200 {
				t.Errorf("content %d bytes, want a little under %d", len(res.Content), maxOut)
			}
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], fmt.Sprintf("truncated at %d of", len(res.Content))) {
				t.Errorf("warnings %q", res.Warnings)
			}
			all := strings.Split(res.Content, "\n")
			if last := all[len(all)-1]; last != tc.closing {
				t.Errorf("last line %q, want %q", last, tc.closing)
			}
			if before := all[len(all)-2]; !wholeLine.MatchString(before) {
				t.Errorf("the line before the fence %q is cut", before)
			}
		})
	}
}

// TestOpenFence: the line that closes the fence left open, if any.
func TestOpenFence(t *testing.T) {
	for _, tc := range []struct{ md, want string }{
		{"text\n\n```go\nx := 1", "```"},
		{"text\n\n```go\nx := 1\n```\n\nmore", ""},
		{"> ```\n> x", "> ```"},
		{"- item\n\n  ````\n  ```\n  x", "  ````"},
		{"~~~\nx\n~~~~\n\n~~~py\ny", "~~~"},
		{"a ```span``` here\n```x``` too", ""},
	} {
		if got := openFence(tc.md); got != tc.want {
			t.Errorf("openFence(%q) = %q, want %q", tc.md, got, tc.want)
		}
	}
}

// TestHeadMetadataKept: a page whose main content is not sought for its
// size keeps the metadata its <head> declares; it came back as null.
func TestHeadMetadataKept(t *testing.T) {
	page := strings.Replace(string(largePage(30_000, false)), "<title>Large page</title>",
		`<title>Large page</title><meta name="description" content="Every word of it"><meta name="author" content="A. Writer">`+
			`<meta property="og:site_name" content="Words"><meta property="article:published_time" content="2026-11-30T08:00:00Z">`+
			`<link rel="canonical" href="https://example.com/large">`, 1)
	page = strings.Replace(page, "<html>", `<html lang="en-GB">`, 1)
	want := map[string]string{"title": "Large page", "description": "Every word of it", "author": "A. Writer",
		"site_name": "Words", "date": "2026-11-30", "url": "https://example.com/large", "language": "en"}
	for _, opts := range []map[string]string{nil, {OptionMainContent: "false"}} {
		res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(page), ContentType: "text/html",
			URL: "https://example.com/", Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range want {
			if res.Metadata[k] != v {
				t.Errorf("%v: metadata %s = %q, want %q", opts, k, res.Metadata[k], v)
			}
		}
	}
}
