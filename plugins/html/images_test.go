package html

import (
	"strconv"
	"strings"
	"testing"
)

// imagePage puts markup between the paragraphs of an article long enough
// to be read as the page's content.
func imagePage(markup string) string {
	return `<html><head><title>Pruning</title></head><body><article><h1>Pruning apple trees</h1>` +
		`<p>Apple trees are pruned in late winter, while they are dormant, so that the cuts heal before the sap rises in spring.</p>` +
		markup +
		`<p>Take out the dead and crossing branches first, then thin the crown so that light reaches every part of the tree.</p>` +
		`<p>A tree pruned this way every winter fruits on wood of every age, and stays low enough to pick without a ladder.</p>` +
		`</article></body></html>`
}

// TestImages: with the images option an image the reader sees is
// ![alt](absolute URL), the one a browser loads; pixels, icons and
// inlined bytes are not.
func TestImages(t *testing.T) {
	on := map[string]string{OptionImages: "true"}
	for _, tc := range []struct {
		name, markup string
		want, gone   []string
	}{
		{"src made absolute", `<p><img src="/img/cut.jpg" alt="A cut above a bud"></p>`,
			[]string{"![A cut above a bud](https://garden.example/img/cut.jpg)"}, nil},
		{"lazy data-src over a placeholder", `<p><img src="/img/lazy-placeholder.gif" data-src="/img/crown.jpg" alt="The crown"></p>`,
			[]string{"![The crown](https://garden.example/img/crown.jpg)"}, []string{"placeholder"}},
		{"srcset's widest", `<p><img srcset="/img/s.jpg 480w, /img/l.jpg 1200w, /img/m.jpg 800w" alt="Shears"></p>`,
			[]string{"![Shears](https://garden.example/img/l.jpg)"}, nil},
		{"a picture's source", `<p><picture><source srcset="/img/saw.webp 2x, /img/saw1.webp 1x" type="image/webp"><img alt="A saw"></picture></p>`,
			[]string{"![A saw](https://garden.example/img/saw.webp)"}, nil},
		{"brackets in alt escaped", `<p><img src="/img/a.jpg" alt="before [and] after"></p>`,
			[]string{`![before \[and\] after](https://garden.example/img/a.jpg)`}, nil},
		{"tracking pixel left out", `<p><img src="https://tracker.example/p.gif" width="1" height="1" alt=""><img src="https://www.facebook.com/tr?id=1" alt="fb"></p>`,
			nil, []string{"tracker.example", "facebook.com"}},
		{"icon left out", `<p><img src="/img/share.png" width="24" height="24" alt="share"> <img src="/img/x.svg" class="social-icon" alt="x"> <img src="/favicon.ico" alt="site"></p>`,
			nil, []string{"share.png", "x.svg", "favicon"}},
		{"inlined data: image, its alt stays", `<p><img src="data:image/png;base64,iVBORw0KGgo=" alt="A ladder against the trunk"></p>`,
			[]string{"A ladder against the trunk"}, []string{"data:image", "base64", "![A ladder"}},
		{"a paragraph holding only a linked image", `<p><a href="/full/big.jpg"><img src="/thumb/small.jpg" alt="Thumbnail of a chart"></a></p>`,
			[]string{"[![Thumbnail of a chart](https://garden.example/thumb/small.jpg)](https://garden.example/full/big.jpg)"}, nil},
		{"a linked picture alone in a paragraph", `<p> <a href="/full/saw.jpg"> <picture><source srcset="/img/saw.webp"><img alt="A saw"></picture> </a> </p>`,
			[]string{"[![A saw](https://garden.example/img/saw.webp)](https://garden.example/full/saw.jpg)"}, nil},
		{"a linked image in a sentence", `<p>The cut, <a href="/full/cut.jpg"><img src="/thumb/cut.jpg" alt="close up"></a>, heals.</p>`,
			[]string{"[![close up](https://garden.example/thumb/cut.jpg)](https://garden.example/full/cut.jpg)"}, nil},
		{"javascript: URL left out", `<p><img src="javascript:alert(1)" alt="bad"></p>`,
			nil, []string{"javascript:", "![bad]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(imagePage(tc.markup)), pageURL, on)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, tc.want, tc.gone)
			if strings.ContainsFunc(res.Content, isObjectMark) {
				t.Errorf("an object mark is left in:\n%q", res.Content)
			}
		})
	}
}

// TestLazyImageNamedLazy: a lazy loader's attribute is the real image
// even when its URL says "lazy" or "placeholder"; only src is taken for a
// placeholder (the words anywhere in the URL lost these images, or kept
// the 1×1 placeholder instead).
func TestLazyImageNamedLazy(t *testing.T) {
	const pixel = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
	for _, tc := range []struct {
		name, markup string
		base64       bool
		want, gone   []string
	}{
		{"data-src named lazy over a data: placeholder", `<p><img src="` + pixel + `" data-src="img/lazy.jpg" alt="The crown"></p>`, false,
			[]string{"![The crown](https://garden.example/articles/img/lazy.jpg)"}, []string{"data:image"}},
		{"the same with inlined images kept", `<p><img src="` + pixel + `" data-src="img/lazy.jpg" alt="The crown"></p>`, true,
			[]string{"![The crown](https://garden.example/articles/img/lazy.jpg)"}, []string{"data:image"}},
		{"data-src named lazy, no src", `<p><img data-src="img/lazy-nosrc.jpg" alt="The trunk"></p>`, false,
			[]string{"![The trunk](https://garden.example/articles/img/lazy-nosrc.jpg)"}, nil},
		{"data-src named lazy over a placeholder file", `<p><img src="img/placeholder.gif" data-src="img/lazy-ph.jpg" alt="The saw"></p>`, false,
			[]string{"![The saw](https://garden.example/articles/img/lazy-ph.jpg)"}, []string{"placeholder.gif"}},
		{"data-srcset named lazy", `<p><img src="img/placeholder.gif" data-srcset="img/lazy-s.jpg 480w, img/lazy-l.jpg 1200w" alt="Shears"></p>`, false,
			[]string{"![Shears](https://garden.example/articles/img/lazy-l.jpg)"}, []string{"placeholder.gif"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := map[string]string{OptionImages: "true", OptionBase64Images: strconv.FormatBool(tc.base64)}
			res, err := extractHTML(t, []byte(imagePage(tc.markup)), "https://garden.example/articles/pruning.html", opts)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, tc.want, tc.gone)
		})
	}
}

// TestFigures: with the images option a figure within the article comes
// back, its images and its caption; without it, as the benchmarks' ground
// truths have it, neither.
func TestFigures(t *testing.T) {
	page := imagePage(`<figure><img src="/img/cut.jpg" alt="A cut above a bud"><figcaption>Cut just above an outward-facing bud.</figcaption></figure>`)
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, nil, []string{"![", "cut.jpg", "outward-facing"})
	res, err = extractHTML(t, []byte(page), pageURL, map[string]string{OptionImages: "true", "html": "true"})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"![A cut above a bud](https://garden.example/img/cut.jpg)", "Cut just above an outward-facing bud."}, nil)
	checkText(t, res.HTML, []string{`<img src="https://garden.example/img/cut.jpg" alt="A cut above a bud">`}, nil)
}

// TestImagesLeftOut: without the option the images go-trafilatura's
// fallbacks keep go too: they came out as the page wrote them, a lazy
// loader's placeholder and a tracking pixel among them.
func TestImagesLeftOut(t *testing.T) {
	page := imagePage(`<p><img src="/img/cut.jpg" alt="A cut above a bud"></p><p><img src="/lazy.gif" data-src="/img/crown.jpg" alt="The crown"></p>` +
		`<img src="https://stats.example/p.gif" width="1" height="1" alt="">`)
	for _, opts := range []map[string]string{nil, {OptionImages: "false"}, {OptionMainContent: "false"}} {
		res, err := extractHTML(t, []byte(page), pageURL, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkText(t, res.Content, []string{"thin the crown"}, []string{"![", "cut.jpg", "lazy.gif", "stats.example"})
	}
}

// TestImagesWithoutPageURL: a page read without its address (sift
// extract on a file, no --url) keeps its images' relative URLs, as its
// links keep theirs, rather than dropping the images unsaid; a scheme
// other than http(s) still goes.
func TestImagesWithoutPageURL(t *testing.T) {
	page := imagePage(`<p><img src="img/cut.jpg" alt="A cut above a bud"> <img src="//cdn.garden.example/crown.jpg" alt="The crown"></p>` +
		`<p><img src="javascript:alert(1)" alt="bad"> <img src="file:///etc/passwd" alt="secret"></p>`)
	res, err := extractHTML(t, []byte(page), "", map[string]string{OptionImages: "true"})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"![A cut above a bud](img/cut.jpg)", "![The crown](//cdn.garden.example/crown.jpg)"},
		[]string{"javascript:", "![bad]", "file:", "![secret]"})
}

// TestFigureWithoutCaption: a figure with no caption is its image, and a
// figure after the article's text (a teaser) stays out.
func TestFigureWithoutCaption(t *testing.T) {
	page := imagePage(`<figure><img src="/img/b.jpg" alt="Branch collar left intact after the cut"></figure>`)
	page = strings.Replace(page, "</article>", `</article><figure><img src="/img/next.jpg" alt="Next"><figcaption>Read next: grafting</figcaption></figure>`, 1)
	res, err := extractHTML(t, []byte(page), pageURL, map[string]string{OptionImages: "true"})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"![Branch collar left intact after the cut](https://garden.example/img/b.jpg)"}, []string{"grafting", "next.jpg"})
}

// TestImagesOptionRefused: the option takes true or false only.
func TestImagesOptionRefused(t *testing.T) {
	_, err := extractHTML(t, []byte(imagePage("")), pageURL, map[string]string{OptionImages: "yes"})
	if err == nil || !strings.Contains(err.Error(), `images "yes": want "true" or "false"`) {
		t.Errorf("got %v", err)
	}
}

func TestLargestCandidate(t *testing.T) {
	for _, tc := range []struct{ srcset, want string }{
		{"a.jpg 1x, b.jpg 2x", "b.jpg"},
		{"a.jpg, b.jpg 1.5x", "b.jpg"},
		{"a.jpg 100w, b.jpg 50w", "a.jpg"},
		{"https://cdn.example/i/w_100,h_50/a.jpg 100w, https://cdn.example/i/w_400,h_200/a.jpg 400w", "https://cdn.example/i/w_400,h_200/a.jpg"},
		{"", ""},
	} {
		if got := largestCandidate(tc.srcset); got != tc.want {
			t.Errorf("largestCandidate(%q) = %q, want %q", tc.srcset, got, tc.want)
		}
	}
}

func TestDropImageMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`See ![a \[b\]](https://x.example/a.png "t") here.`, "See here."},
		{"- [![](https://x.example/a.png) Desk $5](https://x.example/d)\n    - ![x](https://x.example/b.png) nested", "- [Desk $5](https://x.example/d)\n    - nested"},
		{"[![logo](https://x.example/l.png)](https://x.example/)\n\n\n\nText", "Text"},
		{"Write `![alt](url)` for an image.", "Write `![alt](url)` for an image."},
		{"```\n![alt](url)\n```", "```\n![alt](url)\n```"},
		{"| 1 | ![](https://x.example/s.gif) | Job |", "| 1 | | Job |"},
	} {
		if got := dropImageMarkdown(tc.in); got != tc.want {
			t.Errorf("dropImageMarkdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestQuoteFigure: a quote set in a figure, its author in the caption,
// comes back whole with the images option.
func TestQuoteFigure(t *testing.T) {
	page := imagePage(`<figure class="quote"><blockquote><p>Prune little and often, and the tree will thank you for it.</p></blockquote>` +
		`<figcaption><strong>A. Gardener</strong>, head of the orchard</figcaption></figure>`)
	res, err := extractHTML(t, []byte(page), pageURL, map[string]string{OptionImages: "true"})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"> Prune little and often, and the tree will thank you for it.", "**A. Gardener**, head of the orchard"}, nil)
}

// TestQuoteFigureHeld: when the content holds a quote figure's quote,
// the figure's caption (its author) goes right after it.
func TestQuoteFigureHeld(t *testing.T) {
	quote := func(text, who string) string {
		return `<figure><blockquote><p>` + text + `</p></blockquote><figcaption>— ` + who + `</figcaption></figure>`
	}
	page := `<html><head><title>Reviews</title></head><body><main><h1>Reviews</h1>` +
		quote("Olivia hosted an amazing retreat in Morocco, with yoga twice a day, wonderful food and the best company.", "JLY and JF, 2023") +
		quote("The classes are energising and fun, and the meditation at the end leaves me relaxed and centred every week.", "Sam, 2022") +
		`</main></body></html>`
	res, err := extractHTML(t, []byte(page), pageURL, map[string]string{OptionImages: "true"})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"best company.\n\n— JLY and JF, 2023\n\n", "centred every week.\n\n— Sam, 2022"}, nil)
}

// TestBase64Images: with base64_images beside images, an image the page
// inlines as a data: URI is kept, in the markdown and the HTML, up to
// maxInlineImage; a larger one is its alt text, and a warning counts it.
// Without images the option changes nothing.
func TestBase64Images(t *testing.T) {
	small := "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg=="
	big := "data:image/png;base64," + strings.Repeat("A", maxInlineImage)
	page := imagePage(`<p><img src="` + small + `" alt="A ladder" width="300" height="200"></p>` +
		`<p><img src="` + big + `" alt="The orchard in bloom" width="800" height="600"></p>` +
		`<p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="1" height="1" alt=""></p>`)
	for _, tc := range []struct {
		name        string
		opts        map[string]string
		want, gone  []string
		wantWarning bool
	}{
		{"kept", map[string]string{OptionImages: "true", OptionBase64Images: "true", "html": "true"},
			[]string{"![A ladder](" + small + ")", "The orchard in bloom"}, []string{"AAAAAAAA", "R0lGOD"}, true},
		{"unset: alt text", map[string]string{OptionImages: "true"},
			[]string{"A ladder", "The orchard in bloom"}, []string{"data:", "![A ladder"}, false},
		{"false: alt text", map[string]string{OptionImages: "true", OptionBase64Images: "false"},
			[]string{"A ladder", "The orchard in bloom"}, []string{"data:", "![A ladder"}, false},
		{"without images", map[string]string{OptionBase64Images: "true"},
			nil, []string{"data:", "!["}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(page), pageURL, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, tc.want, tc.gone)
			if tc.opts["html"] == "true" {
				checkText(t, res.HTML, []string{`<img src="` + small + `" alt="A ladder">`}, []string{"AAAAAAAA"})
			}
			warned := strings.Contains(strings.Join(res.Warnings, "; "), "1 base64 images over 64 KiB each were left out (their alt text stays)")
			if warned != tc.wantWarning {
				t.Errorf("warnings %q: want the size warning %v", res.Warnings, tc.wantWarning)
			}
		})
	}
	if _, err := extractHTML(t, []byte(page), pageURL, map[string]string{OptionBase64Images: "yes"}); err == nil || !strings.Contains(err.Error(), `base64_images "yes": want "true" or "false"`) {
		t.Errorf("base64_images yes: got %v", err)
	}
}

// TestNoscriptTwinImage: a lazy image whose real URL is only in the
// <noscript> beside it (its twin for readers without scripts) is that
// image; it came out as its alt text, its placeholder or nothing. An image
// with a source of its own keeps it.
func TestNoscriptTwinImage(t *testing.T) {
	const svg = "data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22%3E%3C/svg%3E"
	for _, tc := range []struct {
		name, markup string
		want, gone   []string
	}{
		{"twin after, data: placeholder", `<p><img class="lazy" src="` + svg + `" alt="four"><noscript><img src="/l/four.jpg"></noscript></p>`,
			[]string{"![four](https://garden.example/l/four.jpg)"}, []string{"data:image"}},
		{"twin before, placeholder file, its alt taken", `<p><noscript><img src="/l/five.jpg" alt="five"></noscript> <img class="lazyload" src="/img/placeholder.gif"></p>`,
			[]string{"![five](https://garden.example/l/five.jpg)"}, []string{"placeholder.gif"}},
		{"twin's srcset", `<p><img src="` + svg + `" alt="six"><noscript><img srcset="/l/six-s.jpg 400w, /l/six-l.jpg 1200w"></noscript></p>`,
			[]string{"![six](https://garden.example/l/six-l.jpg)"}, nil},
		{"a picture's lazy image", `<p><picture><source data-srcset="` + svg + `"><img src="` + svg + `" alt="seven"></picture><noscript><img src="/l/seven.jpg"></noscript></p>`,
			[]string{"![seven](https://garden.example/l/seven.jpg)"}, nil},
		{"a real src stays", `<p><img src="/img/eight.jpg" alt="eight"><noscript><img src="/l/other.jpg"></noscript></p>`,
			[]string{"![eight](https://garden.example/img/eight.jpg)"}, []string{"other.jpg"}},
		{"a lazy attribute stays", `<p><img src="` + svg + `" data-src="/img/nine.jpg" alt="nine"><noscript><img src="/l/other.jpg"></noscript></p>`,
			[]string{"![nine](https://garden.example/img/nine.jpg)"}, []string{"other.jpg"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(imagePage(tc.markup)), pageURL, map[string]string{OptionImages: "true"})
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, tc.want, tc.gone)
		})
	}
}
