package html

import (
	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// go-trafilatura looks for one article, and on pages that are not
// articles it often settles for a part of the content: one section of a
// service page, one card of a shop's grid, one entry of an index. On a
// page that declares neither an article nor a product, widerContent offers
// a wider region when it holds more than widerFactor times the words of
// go-trafilatura's pick:
//
//   - the page's main region (<main>, role="main"), without its chrome
//     and, unless the page is a discussion, its runs of comments
//     (comments.go);
//   - failing that, the page's largest run of repeated items (items.go);
//   - failing that, unless the page is a discussion, the page's body
//     without its chrome and its runs of comments, when at most
//     bodyLinkShare of its words are in links: what go-trafilatura left out of a service page is then its
//     other sections, not lists of links. A discussion's posts are found
//     by their markup (thread.go, the item runs) instead, and its body
//     holds more than the thread.
//
// A discussion whose posts are not marked in microdata (thread.go) is
// offered its largest run of repeated items first, comments included:
// there the comments are the content.
//
// The factor was chosen by measurement against 2 and 1.25
// (bench/html/BENCHMARKS.md); articles are never widened.
const widerFactor = 1.5

// bodyLinkShare is the most of a page body's words that may sit in links
// for the body to be the content: chosen by measurement against 0.1, 0.3
// and no limit (bench/html/BENCHMARKS.md).
const bodyLinkShare = 0.2

// widerContent returns the wider region, or nil to keep picked.
func widerContent(root *html.Node, page pageType, picked *html.Node) *html.Node {
	enough := 0
	if picked != nil {
		enough = int(widerFactor * float64(words(picked)))
	}
	if page.discussion {
		if g := itemRegion(root, true); g != nil && g.words > enough {
			return g.render()
		}
	}
	if page.article || page.product {
		return nil
	}
	if main := goquery.NewDocumentFromNode(root).Find("main, [role=main]"); main.Length() > 0 {
		wide := chromeless(main.Nodes[0])
		if !page.comments {
			dropCommentRuns(wide)
		}
		if words(wide) > enough {
			return wide
		}
		return nil
	}
	if g := itemRegion(root, false); g != nil && g.words > enough {
		if page.discussion || !g.columnsAround(picked) {
			return g.render()
		}
	}
	if page.discussion {
		return nil
	}
	body := withoutChrome(root)
	if !page.comments {
		dropCommentRuns(body)
	}
	if all, linked := countWords(body, false); all > enough && float64(linked) <= bodyLinkShare*float64(all) {
		return body
	}
	return nil
}
