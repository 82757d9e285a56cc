package firecrawl

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/siftd/sift/stages/extract"
)

func TestReadPage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, base string
		links            []string
		favicon          string
		meta             map[string]string
	}{
		{"relative, repeated, other schemes", `<a href="/a">A</a><a href="b?x=1">B</a><a href="/a">again</a>` +
			`<a href="javascript:void(0)">js</a><a href="mailto:x@example.org">m</a><a href="">empty</a>` +
			`<a href="https://other.example/z#top">Z</a><area href="../c">`,
			"https://example.org/dir/page", []string{"https://example.org/a", "https://example.org/dir/b?x=1",
				"https://other.example/z#top", "https://example.org/c"}, "", map[string]string{}},
		{"base href", `<head><base href="https://cdn.example/root/"><link rel="shortcut icon" href="fav.ico">` +
			`<meta property="og:title" content=" OG "><meta name="twitter:card" content="summary">` +
			`<meta name="Keywords" content="a, b"><meta name="keywords" content="second"></head><a href="x">x</a>`,
			"https://example.org/", []string{"https://cdn.example/root/x"}, "https://cdn.example/root/fav.ico",
			map[string]string{"og:title": "OG", "twitter:card": "summary", "keywords": "a, b"}},
		{"the first base, for the links before it too", `<a href="early">e</a><base href="https://cdn.example/one/">` +
			`<base href="https://cdn.example/two/"><a href="late">l</a><link rel=icon href="fav.ico">`,
			"https://example.org/", []string{"https://cdn.example/one/early", "https://cdn.example/one/late"},
			"https://cdn.example/one/fav.ico", map[string]string{}},
		{"a base that is no web address", `<base href="javascript:alert(1)"><a href="x">x</a>`,
			"https://example.org/d/", []string{"https://example.org/d/x"}, "", map[string]string{}},
		{"not html at all", "\x00\xff<<<a href=", "https://example.org/", []string{}, "", map[string]string{}},
	}
	titles := map[string]string{
		`<head><title> Garden &amp;
  notes </title><title>Second</title></head>`: "Garden & notes",
		`<body><svg><title>A drawing</title></svg><title>Late</title></body>`: "Late",
		`<meta property="og:title" content="OG">`:                             "",
	}
	for body, want := range titles {
		if got := readPage([]byte(body), "https://example.org/").Title; got != want {
			t.Errorf("title of %q: %q, want %q", body, got, want)
		}
	}
	for _, tc := range tests {
		got := readPage([]byte(tc.body), tc.base)
		if !reflect.DeepEqual(got.Links, tc.links) || got.Favicon != tc.favicon || !reflect.DeepEqual(got.Meta, tc.meta) {
			t.Errorf("%s: %+v", tc.name, got)
		}
	}
}

func FuzzReadPage(f *testing.F) {
	f.Add([]byte(`<base href="//x"><a href="/a"><link rel=icon href=%zz><meta property="og:x" content=y>`), "https://example.org/")
	f.Add([]byte(`<a href="http://[::1]:80/">`), "http://h/")
	f.Add([]byte(`<picture><source srcset="a.jpg 1x,b.jpg, c.jpg 2x"><img src=x data-src="javascript:1" style="background:url(/y)"></picture>`), "https://h/")
	f.Fuzz(func(t *testing.T, body []byte, base string) {
		info := readPage(body, base)
		seen := map[string]bool{}
		for _, l := range info.Links {
			if seen[l] || !(strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")) {
				t.Fatalf("link %q repeated or not http(s)", l)
			}
			seen[l] = true
		}
		seen = map[string]bool{}
		for _, l := range info.Images {
			if seen[l] || !(strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")) {
				t.Fatalf("image %q repeated or not http(s)", l)
			}
			seen[l] = true
		}
	})
}

func TestReadPageBounds(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", 1<<20)
	var page strings.Builder
	page.WriteString("<html><head><title>" + huge + "</title>")
	page.WriteString(`<meta name="description" content="` + huge + `">`)
	for i := range 10_000 {
		fmt.Fprintf(&page, `<meta name="junk%d" content="v">`, i)
	}
	page.WriteString(`<meta property="og:title" content="Real">`)
	for i := range 2 * maxMetaTags {
		fmt.Fprintf(&page, `<meta property="og:tag%d" content="v">`, i)
	}
	page.WriteString("</head><body></body></html>")
	info := readPage([]byte(page.String()), "https://example.test/")
	if len(info.Title) != extract.MaxTitleBytes {
		t.Errorf("title of %d bytes, want %d", len(info.Title), extract.MaxTitleBytes)
	}
	if len(info.Meta["description"]) != extract.MaxMetadataBytes {
		t.Errorf("description of %d bytes, want %d", len(info.Meta["description"]), extract.MaxMetadataBytes)
	}
	if info.Meta["og:title"] != "Real" || len(info.Meta) != maxMetaTags {
		t.Errorf("og:title %q and %d tags read, want Real and %d", info.Meta["og:title"], len(info.Meta), maxMetaTags)
	}
	want := []string{
		fmt.Sprintf("the page's <title> cut at %d of %d bytes", extract.MaxTitleBytes, len(huge)),
		fmt.Sprintf(`meta tag "description" cut at %d of %d bytes`, extract.MaxMetadataBytes, len(huge)),
		fmt.Sprintf("read the first %d of the page's %d meta tags Firecrawl reports", maxMetaTags, 2*maxMetaTags+2), // description, og:title and the og:tags
	}
	if !reflect.DeepEqual(info.Cuts, want) {
		t.Errorf("cuts %q, want %q", info.Cuts, want)
	}
}

// TestReadPageImages: the images format lists every image URL the page
// names, absolute, http(s) only, each once, in page order; those in a
// <noscript> too (a lazy image's twin, which the tokenizer reads as text).
func TestReadPageImages(t *testing.T) {
	t.Parallel()
	body := `<head><meta property="og:image" content="/og.jpg"><link rel="icon" href="/fav.ico"></head><body>` +
		`<img src="/a.jpg" srcset="/a-480.jpg 480w, https://cdn.example/i/w_800,h_400/a.jpg 800w"><img src="/a.jpg">` +
		`<img src="data:image/png;base64,AAAA" data-src="lazy/b.jpg"><picture><source srcset="/c.webp 2x, /c1.webp"><img src="/c.jpg"></picture>` +
		`<source srcset="/not-a-picture.webp"><video poster="/v.jpg"></video><div style="background-image: url('/bg.png')"></div>` +
		`<img class="lazy" src="data:image/svg+xml,%3Csvg%3E%3C/svg%3E" alt="four"><noscript><img src="/l/four.jpg"></noscript>` +
		`<img src="javascript:alert(1)"></body>`
	got := readPage([]byte(body), "https://example.org/dir/page").Images
	want := []string{"https://example.org/og.jpg", "https://example.org/fav.ico", "https://example.org/a.jpg", "https://example.org/a-480.jpg",
		"https://cdn.example/i/w_800,h_400/a.jpg", "https://example.org/dir/lazy/b.jpg", "https://example.org/c.webp", "https://example.org/c1.webp",
		"https://example.org/c.jpg", "https://example.org/v.jpg", "https://example.org/bg.png", "https://example.org/l/four.jpg"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("images\n%q\nwant\n%q", got, want)
	}
}
