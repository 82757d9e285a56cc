package html

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/siftd/sift/plugins/sdk"
)

// largePage returns a page of n paragraphs of one word each, and, with
// links, an article of n paragraphs each with a sentence and a link: the
// two shapes an outside tester found extraction slowing down on faster
// than the page grew.
func largePage(n int, links bool) []byte {
	return nestedPage(n, links, 0)
}

// nestedPage is largePage with its paragraphs under depth nested <div>s.
func nestedPage(n int, links bool, depth int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Large page</title></head><body><article>")
	b.WriteString(strings.Repeat("<div>", depth))
	for i := range n {
		if links {
			fmt.Fprintf(&b, "<p>Paragraph %d says a few words about <a href=\"/p/%d\">topic %d</a> and goes on.</p>\n", i, i, i)
		} else {
			b.WriteString("<p>word")
		}
	}
	b.WriteString("</article></body></html>")
	return []byte(b.String())
}

// galleryPage is an article of n images, one after the other, with the
// alt text an outside tester gave them.
func galleryPage(n int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Large page</title></head><body><article><p>Intro text of the gallery page.</p>")
	for i := range n {
		fmt.Fprintf(&b, `<img src="/i/%d.jpg" alt="img %d">`, i, i)
	}
	b.WriteString("</article></body></html>")
	return []byte(b.String())
}

// prePage is a page whose body is one <pre> of n lines of code, the
// shape of a log or a dump an outside tester found took seconds at 4 MB
// (about 65,000 lines).
func prePage(n int) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Large page</title></head><body><pre>")
	for i := range n {
		fmt.Fprintf(&b, "line %d of the listing: x = y + %d; // a comment\n", i, i)
	}
	b.WriteString("</pre></body></html>")
	return []byte(b.String())
}

// deepJSONLDPage is a short page whose JSON-LD nests n objects deep.
func deepJSONLDPage(n int) []byte {
	ld := strings.Repeat(`{"@type":"Product","name":"D","a":`, n) + "1" + strings.Repeat("}", n)
	return []byte(`<!doctype html><html><head><title>Large page</title><script type="application/ld+json">` + ld +
		`</script></head><body><article><p>A short page whose JSON-LD nests deep.</p></article></body></html>`)
}

// deepListPage is an article whose list nests n items deep, each item a
// line of text and a block, with a mebibyte of text in the deepest; and,
// with quotes, the same of quotes each holding a list: the shapes whose
// every level was read whole again by rules that compare the content's
// items and quotes with the page's (itemtree.go, quotetree.go).
func deepListPage(n int, quotes bool) []byte {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Large page</title></head><body><article><h1>T</h1><p>")
	b.WriteString(strings.Repeat("Intro text of the page. ", 20))
	b.WriteString("</p>")
	open, shut := "<ul><li>item<div>block</div>", "</li></ul>"
	if quotes {
		open, shut = "<blockquote><ul><li>a</li></ul>", "</blockquote>"
	}
	b.WriteString(strings.Repeat(open, n))
	b.WriteString(strings.Repeat("word ", 200_000))
	b.WriteString(strings.Repeat(shut, n))
	b.WriteString("</article></body></html>")
	return []byte(b.String())
}

// BenchmarkLargePage extracts generated pages of 10k to 100k paragraphs and
// reports the time per element: flat figures across the sizes mean the
// cost grows with the page, a figure that grows with it that it grows
// faster. The nested pages hold 1k to 50k of the links' paragraphs under
// 400 <div>s; the gallery pages 10k to 100k images, read with the images
// option (an element is an image), and the largest without it; the JSON-LD pages a script nested 1k to
// 50k deep (an element is a level); the pre pages one <pre> of 10k to 100k
// lines (an element is a line); the deep lists and quotes 100 to 480
// levels above a mebibyte of text (an element is a level).
// The unbounded runs switch the bounds off (bounded.go), to show in the
// same run what they save; they stop where a page takes tens of seconds
// (100k words run a plugin out of memory).
func BenchmarkLargePage(b *testing.B) {
	ctx := context.Background()
	bounded := New().(*Extractor)
	unbounded := &Extractor{md: bounded.md, rules: &rules{off: map[string]bool{"bound": true}}}
	for _, shape := range []struct {
		name  string
		page  func(n int) []byte
		opts  map[string]string
		sizes []int
		// unboundedUpTo is the largest page the unbounded runs read.
		unboundedUpTo int
	}{
		{"words", func(n int) []byte { return nestedPage(n, false, 0) }, nil, []int{10_000, 20_000, 50_000, 100_000}, 50_000},
		{"links", func(n int) []byte { return nestedPage(n, true, 0) }, nil, []int{10_000, 20_000, 50_000, 100_000}, 20_000},
		{"nested", func(n int) []byte { return nestedPage(n, true, 400) }, nil, []int{1_000, 2_000, 10_000, 50_000}, 2_000},
		{"gallery", galleryPage, map[string]string{OptionImages: "true"}, []int{10_000, 20_000, 50_000, 100_000}, 100_000},
		{"gallery-noimages", galleryPage, nil, []int{100_000}, 0},
		{"jsonld", deepJSONLDPage, nil, []int{1_000, 5_000, 10_000, 50_000}, 0},
		{"pre", prePage, nil, []int{10_000, 20_000, 50_000, 100_000}, 100_000},
		{"deep-lists", func(n int) []byte { return deepListPage(n, false) }, nil, []int{100, 480}, 0},
		{"deep-quotes", func(n int) []byte { return deepListPage(n, true) }, nil, []int{100, 480}, 0},
	} {
		for _, n := range shape.sizes {
			page := shape.page(n)
			for _, run := range []struct {
				name string
				ex   *Extractor
			}{{"bounded", bounded}, {"unbounded", unbounded}} {
				if run.ex == unbounded && n > shape.unboundedUpTo {
					continue
				}
				size := fmt.Sprintf("%dk", n/1000)
				if n < 1000 {
					size = fmt.Sprint(n)
				}
				b.Run(shape.name+"/"+size+"/"+run.name, func(b *testing.B) {
					b.SetBytes(int64(len(page)))
					for b.Loop() {
						_, err := run.ex.Extract(ctx, &sdk.ExtractRequest{Body: page, ContentType: "text/html", URL: "https://example.com/", Options: shape.opts})
						var de *sdk.DocError
						if err != nil && !asDocError(err, &de) {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/element")
				})
			}
		}
	}
}

// TestParagraphCost: the cost is the sum of the running text length at
// each paragraph, text outside paragraphs counts for nothing, and a
// paragraph inside another is counted in its outer one.
func TestParagraphCost(t *testing.T) {
	tests := []struct {
		name       string
		page       string
		cost       uint64
		n, textLen int
	}{
		{"none", `<div>loose text</div>`, 0, 0, 0},
		{"one", `<p>abcd</p>`, 4, 1, 4},
		{"running sum", `<p>ab</p><div>not counted</div><p>cde</p><p>f</p>`, 2 + 5 + 6, 3, 6},
		{"inline markup", `<p>a<b>bc</b><a href="/">d</a></p>`, 4, 1, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := html.Parse(strings.NewReader(tt.page))
			if err != nil {
				t.Fatal(err)
			}
			cost, n, text := paragraphCost(root)
			if cost != tt.cost || n != tt.n || text != tt.textLen {
				t.Errorf("paragraphCost = %d, %d paragraphs, %d bytes; want %d, %d, %d", cost, n, text, tt.cost, tt.n, tt.textLen)
			}
		})
	}
}

// TestNestedText: text counts once for each block around it, scripts and
// styles for nothing, and inline elements add no depth.
func TestNestedText(t *testing.T) {
	tests := []struct {
		name           string
		page           string
		cost           uint64
		textLen, depth int
	}{
		{"body text", `abc`, 0, 3, 0},
		{"one block", `<div>abc</div>`, 3, 3, 1},
		{"nested", `<div>ab<section><ul><li>cd</li></ul></section></div>`, 2 + 3*2, 4, 3},
		{"inline", `<div><span><b>ab</b></span></div>`, 2, 2, 1},
		{"script", `<div><script>var x = 1;</script><style>p{}</style>ab</div>`, 2, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := html.Parse(strings.NewReader(tt.page))
			if err != nil {
				t.Fatal(err)
			}
			cost, text, depth := nestedText(root)
			if cost != tt.cost || text != tt.textLen || depth != tt.depth {
				t.Errorf("nestedText = %d, %d bytes, %d deep; want %d, %d, %d", cost, text, depth, tt.cost, tt.textLen, tt.depth)
			}
		})
	}
}

// TestTooCostly: a page whose paragraphs go-trafilatura would copy
// beyond maxParagraphCopy is read without it, at once, every word kept,
// with a warning that says why; so is a page whose text go-trafilatura
// would read again under hundreds of blocks; a smaller page is read as
// before; so is a page of more nodes than maxNodes, a gallery of 60,000
// images, with the images option or without. Without the bounds the
// 30,000-paragraph page and the nested one take seconds each (100,000
// paragraphs run the plugin out of memory) and carry no warning, and the
// gallery costs go-trafilatura's passes over a second of CPU.
func TestTooCostly(t *testing.T) {
	big := largePage(30_000, false)
	tests := []struct {
		name    string
		page    []byte
		opts    map[string]string
		warning string // "" for none about the bound
	}{
		{"main content", big, nil, "main content not sought: the page has 30000 paragraphs"},
		{"whole page", big, map[string]string{OptionMainContent: "false"}, "metadata read from the page's head only: the page has 30000 paragraphs"},
		{"nested", nestedPage(2_000, true, 400), nil, "main content not sought: the page nests "},
		{"gallery", galleryPage(60_000), nil, "main content not sought: the page has 60"},
		{"gallery with images", galleryPage(60_000), map[string]string{OptionImages: "true"}, "main content not sought: the page has 60"},
		{"within the bound", largePage(2_000, true), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: tt.page, ContentType: "text/html",
				URL: "https://example.com/", Options: tt.opts})
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, w := range res.Warnings {
				if strings.Contains(w, "in bounded time") {
					got = w
				}
			}
			if !strings.HasPrefix(got, tt.warning) || (tt.warning == "") != (got == "") {
				t.Errorf("warning %q, want one starting %q", got, tt.warning)
			}
			if res.Title != "Large page" {
				t.Errorf("title %q", res.Title)
			}
			if bytes.Equal(tt.page, big) {
				if words := strings.Count(res.Content, "word"); words != 30_000 {
					t.Errorf("%d words kept, want 30000", words)
				}
			}
		})
	}
}

// TestStylesTooCostlyRefused: a page whose stylesheets would take too long
// to read for hidden text (descendant rules over a deep tree: a 58 KB page
// took 2 s, larger ones the plugin's whole 30 s) is refused as too large,
// in either mode, rather than read with what its styles may hide.
func TestStylesTooCostlyRefused(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><head><style>")
	for i := range 100 {
		fmt.Fprintf(&b, "div.a%d div.b%d p span{color:#fff}", i, i)
	}
	b.WriteString(`</style></head><body><article><div class="a1">` + strings.Repeat(`<div class="b1">`, 200))
	for i := range 2000 {
		fmt.Fprintf(&b, "<p><span>x%d</span> words a reader sees.</p>", i)
	}
	b.WriteString(strings.Repeat("</div>", 201) + "</article></body></html>")
	for _, opts := range []map[string]string{nil, {OptionMainContent: "false"}} {
		_, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(b.String()), ContentType: "text/html", URL: "https://example.com/", Options: opts})
		var de *sdk.DocError
		if !asDocError(err, &de) || de.Class != sdk.ClassTooLarge || !strings.Contains(de.Message, "stylesheets") {
			t.Errorf("options %v: err = %v, want a too_large error naming the stylesheets", opts, err)
		}
	}
}
