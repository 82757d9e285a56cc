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

// TestOutputCapInsideLongLine: with images on, a paragraph of 4,000
// images is one line over the cap; the output keeps the intro and the
// images that fit, each whole, up to near the cap, with a warning saying
// the cut is inside a line. Cut at the line's start, it kept the intro
// alone ("output truncated at 73 of …").
func TestOutputCapInsideLongLine(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><head><title>Gallery</title></head><body><article><h1>Gallery</h1>` +
		`<p>The intro of the gallery, long enough to be read as the page's text.</p><p>`)
	for i := range 4_000 {
		fmt.Fprintf(&b, `<img src="/i/%d.jpg" alt="img %d">`, i, i)
	}
	b.WriteString(`</p><p>The paragraph after the gallery.</p></article></body></html>`)
	const maxOut = 50_000
	res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(b.String()), ContentType: "text/html",
		URL: "https://example.com/", MaxOutputBytes: maxOut, Options: map[string]string{OptionImages: "true"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) > maxOut || len(res.Content) < maxOut-100 {
		t.Errorf("content %d bytes, want a little under %d", len(res.Content), maxOut)
	}
	if !strings.HasPrefix(res.Content, "# Gallery\n\nThe intro of the gallery") {
		t.Errorf("content starts %q", res.Content[:min(80, len(res.Content))])
	}
	if !regexp.MustCompile(`\)\n*$`).MatchString(res.Content) || !regexp.MustCompile(`!\[img \d+\]\(https://example\.com/i/\d+\.jpg\)$`).MatchString(res.Content) {
		t.Errorf("content ends %q, not with a whole image", res.Content[max(0, len(res.Content)-80):])
	}
	want := fmt.Sprintf("output truncated at %d of ", len(res.Content))
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], want) || !strings.Contains(res.Warnings[0], "inside a line of") {
		t.Errorf("warnings %q, want one starting %q and saying the line was cut", res.Warnings, want)
	}
}

// TestCutPoint: the cut is at the last line end within the limit, or
// inside a line that would give back more than a sixteenth of the cap, at
// its last blank or between two images, else at the limit.
func TestCutPoint(t *testing.T) {
	imgs := strings.Repeat("![a](u)", 20) // 140 bytes, a break every 7
	for _, tc := range []struct {
		name, md      string
		limit, maxOut int64
		end, inLine   int
	}{
		{"line end", "one\ntwo three", 10, 1000, 3, 0},
		{"limit at a line end", "one\ntwo\nthree", 7, 1000, 7, 0},
		{"long line, blank", "one\n" + strings.Repeat("word ", 40), 100, 100, 98, 200},
		{"not inside a link", "x\n[a b c](u) " + strings.Repeat("[some link text](u)", 10), 100, 100, 89, 201},
		{"not inside alt text", "x\n" + strings.Repeat("![img 1](u)", 20), 100, 100, 90, 220},
		{"long line, images", "x\n" + imgs, 100, 100, 100, 140},
		{"between images", "x\n" + imgs, 103, 103, 100, 140},
		{"no break", strings.Repeat("a", 200), 100, 100, 100, 200},
		{"no line end", strings.Repeat("word ", 40), 100, 100, 99, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			end, inLine := cutPoint(tc.md, tc.limit, tc.maxOut)
			if end != tc.end || inLine != tc.inLine {
				t.Errorf("cutPoint = %d, %d; want %d, %d", end, inLine, tc.end, tc.inLine)
			}
		})
	}
}
