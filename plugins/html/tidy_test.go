package html

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/siftd/sift/plugins/sdk"
)

// TestTidy: what an agent cannot use leaves the markdown, and links go
// when asked.
func TestTidy(t *testing.T) {
	page := `<html><body><p>Short page <a href="/x"></a> with <a href="/y"><img src="data:image/png;base64,AAAA" alt=""></a>` +
		` an image <img src="DATA:image/png;base64,BBBB" alt="chart"> and <a href="javascript:void(0)">click</a>` +
		` and <a href="/z"> </a> <a href="#top">top</a> <a href="/real">real link</a> <a href="/logo"><img src="/logo.png" alt="logo"></a>` +
		` <a href="/lazy"><img data-src="/l.png"></a> <a href="/shot"><img nitro-lazy-src="/s.png" alt="Wood stain"></a>.</p>` +
		`<h2 id="care">Care<a class="headerlink" href="#care">¶</a></h2></body></html>`
	tests := []struct {
		name    string
		options map[string]string
		want    string
	}{
		// images only when asked for: a link holding an image alone goes with it
		{"default", nil, "Short page with an image chart and click and top [real link](https://ex.example/real) .\n\n## Care"},
		{"links false", map[string]string{"links": "false"}, "Short page with an image chart and click and top real link .\n\n## Care"},
		{"images", map[string]string{"images": "true"}, "Short page with an image chart and click and top [real link](https://ex.example/real) [![logo](https://ex.example/logo.png)](https://ex.example/logo)" +
			" [![](https://ex.example/l.png)](https://ex.example/lazy) [![Wood stain](https://ex.example/s.png)](https://ex.example/shot).\n\n## Care"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(page), "https://ex.example/a", tc.options)
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tc.want {
				t.Errorf("got  %q\nwant %q", res.Content, tc.want)
			}
			if strings.Contains(res.Content, "data:") || strings.Contains(strings.ReplaceAll(res.Content, "![](", ""), "[](") {
				t.Errorf("data URI or empty link kept: %q", res.Content)
			}
		})
	}
	_, err := extractHTML(t, []byte(page), "", map[string]string{"links": "maybe"})
	if de, ok := errors.AsType[*sdk.DocError](err); !ok || de.Class != sdk.ClassBadOption {
		t.Fatalf("links=maybe: %v", err)
	}
}

// TestAngleBrackets: the page's < and > read as they do on the page,
// escaped for markdown with a backslash, not as HTML entities; code keeps
// its own text, and text that shows "&lt;" still does.
func TestAngleBrackets(t *testing.T) {
	page := `<html><body><p>Use <code>a &lt; b</code> and write <i>&lt;token&gt;</i> here; the entity is &amp;lt;.</p>` +
		`<pre><code>if a &lt; b {
}</code></pre><p>A <a href="/x">&lt;link&gt;</a>.</p></body></html>`
	res, err := extractHTML(t, []byte(page), "https://ex.example/", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "Use `a < b` and write *\\<token\\>* here; the entity is &lt;.\n\n```\nif a < b {\n}\n```\n\nA [\\<link\\>](https://ex.example/x)."
	if res.Content != want {
		t.Errorf("got  %q\nwant %q", res.Content, want)
	}
}

// TestCardLinksOnOneLine: a link around blocks (a shop's card) renders as
// one line of markdown, its blocks' texts apart; a link inside a block is
// left as it is.
func TestCardLinksOnOneLine(t *testing.T) {
	card := func(slug, name, price string) string {
		return `<li><a href="/` + slug + `"><div class="img"><img src="/` + slug + `.jpg" alt="walnut"></div>` +
			`<h3>` + name + `</h3><p>` + price + `<br>in stock</p></a></li>`
	}
	page := `<html><body><h1>Standing desks</h1><ul>` + card("v3", "Uplift V3", "$599") + card("frame", "Frame only", "$449") +
		`</ul><p>See <a href="/all">every desk</a>.</p></body></html>`
	for _, tc := range []struct {
		options map[string]string
		want    []string
	}{
		{nil, []string{"- [Uplift V3 $599 in stock](https://ex.example/v3)", "- [Frame only $449 in stock](https://ex.example/frame)"}},
		{map[string]string{OptionImages: "true"}, []string{
			"- [![walnut](https://ex.example/v3.jpg) Uplift V3 $599 in stock](https://ex.example/v3)",
			"- [![walnut](https://ex.example/frame.jpg) Frame only $449 in stock](https://ex.example/frame)",
		}},
	} {
		res, err := extractHTML(t, []byte(page), "https://ex.example/c", tc.options)
		if err != nil {
			t.Fatal(err)
		}
		checkText(t, res.Content, append(tc.want, "See [every desk](https://ex.example/all)."), nil)
	}
}

// A question written as a heading in a <summary> came out as
// "****Question****": go-trafilatura makes the summary a <b>.
func TestSummaryHeadingStaysAHeading(t *testing.T) {
	page := `<html><head><title>FAQ</title></head><body><main><h1>FAQ</h1>` +
		`<p>Answers to the questions our customers ask most often about invoices and payments.</p>` +
		`<details><summary><h3>Do you send paper invoices?</h3></summary><p>No, every invoice is sent by email as a PDF, and you can download it again.</p></details>` +
		`<details><summary>Can I pay by card?</summary><p>Yes, all major cards are accepted, and the payment is taken on the day of the invoice.</p></details>` +
		`</main></body></html>`
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\n### Do you send paper invoices?\n", "\n**Can I pay by card?**\n"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("%q missing from:\n%s", want, res.Content)
		}
	}
}

// A card links its product by its picture and by its name: the picture's
// data: placeholder, written as its alt text, repeated every name of a
// shop's grid. The picture's link goes when a link with text leads to the
// same place; elsewhere the alt text stays.
func TestEchoingImageLinksDropped(t *testing.T) {
	const placeholder = `data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==`
	tests := []struct {
		name, body, want string
		images           int
	}{
		{"card", `<a href="/p/1"><img src="` + placeholder + `" alt="Roc Loc 5 LED Light"></a><a href="/p/1">Roc Loc 5 LED Light</a> $34.95`,
			"Roc Loc 5 LED Light $34.95", 0},
		{"second picture named by its SKU", `<a href="/p/2"><img src="` + placeholder + `" alt="Scamp II"><img src="` + placeholder + `" alt="GR SCAMP II BLK OS"></a><a href="/p/2">Scamp II</a>`,
			"Scamp II", 0},
		{"picture alone", `<a href="/p/3"><img src="` + placeholder + `" alt="Caden Helmet Vent Light"></a> $21.95`,
			"Caden Helmet Vent Light $21.95", 0},
		{"named link elsewhere", `<a href="/p/4"><img src="` + placeholder + `" alt="Sport Light"></a> <a href="/p/5">Other light</a>`,
			"Sport Light Other light", 0},
		{"picture that is no placeholder", `<a href="/p/6"><img src="/sport.png" alt="Sport Light"></a><a href="/p/6">Sport Light</a>`,
			"Sport Light", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := html.Parse(strings.NewReader("<html><body><div>" + tt.body + "</div></body></html>"))
			if err != nil {
				t.Fatal(err)
			}
			body := bodyOf(root)
			tidy(body)
			if got := strings.Join(strings.Fields(textOf(body)), " "); got != tt.want {
				t.Errorf("text %q, want %q", got, tt.want)
			}
			if got := len(matching(body, func(n *html.Node) bool { return n.Data == "img" })); got != tt.images {
				t.Errorf("%d images left, want %d", got, tt.images)
			}
		})
	}
}

// TestSummaryStandsApart: a <details>'s summary is a block of its own, so
// the text it discloses does not run into it, in either mode.
func TestSummaryStandsApart(t *testing.T) {
	const page = `<html><body><article><h1>Tide notes</h1><p>The harbour master posts the tide tables each morning beside the ferry office, and fishermen read them before they sail.</p>` +
		`<details><summary>More</summary>The spring tides come twice a month, at the new and the full moon.</details>` +
		`<details><summary>Sources</summary><p>The port authority's almanac.</p></details>` +
		`<p>The harbour master posts the tide tables each morning beside the ferry office again.</p></article></body></html>`
	for _, opts := range []map[string]string{nil, {"only_main_content": "false"}} {
		res, err := extractHTML(t, []byte(page), pageURL, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Content, "More") || strings.Contains(res.Content, "MoreThe") || strings.Contains(res.Content, "More**The") {
			t.Errorf("options %v: the summary ran into its text:\n%s", opts, res.Content)
		}
		if !strings.Contains(res.Content, "The port authority's almanac.") {
			t.Errorf("options %v: a summary's block lost:\n%s", opts, res.Content)
		}
	}
}
