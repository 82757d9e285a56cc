package html

import (
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// Main content of fewer than thinWords words, on a page with thinRatio
// times more text, is a miss of the main-content heuristics, not a short
// page: on WCXB every page with recall under 0.3 had under 50 words
// extracted (126 of 1,497, mostly listings, collections, products and
// forums). Those pages get the whole body without its chrome instead:
// WCXB F1 0.804 → 0.808, scrapinghub unchanged at 0.958. Thresholds of 80
// and 120 words gained more on WCXB but cost articles (0.956, 0.943).
const (
	thinWords = 50
	thinRatio = 4
)

// tooThin reports whether the extracted content missed most of the page.
func tooThin(content string, root *html.Node) bool {
	n := len(strings.Fields(content))
	if n >= thinWords {
		return false
	}
	body := goquery.NewDocumentFromNode(root).Find("body").Text()
	return len(strings.Fields(body)) > thinRatio*max(n, 10)
}

// withoutChrome returns a copy of the page's body without the parts every
// page repeats: navigation, header, footer, asides, forms, scripts.
func withoutChrome(root *html.Node) *html.Node {
	doc := goquery.NewDocumentFromNode(root).Clone()
	doc.Find("nav, header, footer, aside, form, script, style, noscript, iframe, svg, button, select").Remove()
	doc.Find("[role=navigation], [role=banner], [role=contentinfo], [role=search], [role=complementary]").Remove()
	if body := doc.Find("body"); body.Length() > 0 {
		return body.Nodes[0]
	}
	return doc.Nodes[0]
}
