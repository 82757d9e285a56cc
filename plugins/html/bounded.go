package html

import (
	"fmt"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxParagraphCopy bounds the bytes go-trafilatura would copy to check
// the page's paragraphs. Its extractContent concatenates the text of every
// <p> of the page, one string at a time, so that check copies the text
// read so far once per paragraph: on a page of p paragraphs holding t
// bytes of text about p·t/2 bytes, quadratic in the page. 100,000
// one-word paragraphs (400 KB) copy 20 GB and run the plugin out of
// memory; a 3.7 MB article of 10,000 paragraphs, 17 GB. 256 MiB is a
// tenth of a second of copying, and sixteen times what the largest of the
// extraction benchmark's 1,802 pages copies (16 MB, WCXB-dev), so no page
// read there comes near it. It is reached from about 11,600 paragraphs of
// a word, or 1,300 of 300 bytes: a book, whose body without its chrome
// is what a reader wants anyway.
//
// The bound is not among the ablation's rules (ruleNames): it changes no
// page of the benchmark. BenchmarkLargePage switches it off, as the rule
// "bound", to measure what it saves.
const maxParagraphCopy = 256 << 20

// paragraphCost is what go-trafilatura's paragraph check copies on the
// tree under root: the sum, over its <p> elements in document order, of
// the text bytes of the paragraphs up to and including each. n is the
// number of paragraphs and text their bytes of text, for the warning.
// It is one walk of the tree, linear in the page.
func paragraphCost(root *html.Node) (cost uint64, n, text int) {
	var walk func(*html.Node, bool)
	walk = func(node *html.Node, inP bool) {
		switch {
		case node.Type == html.TextNode && inP:
			text += len(node.Data)
		case node.Type == html.ElementNode && node.DataAtom == atom.P:
			// A nested paragraph (only a script can build one) is
			// counted once, in its outer one: the cost is a bound, not
			// an exact count.
			if !inP {
				for c := node.FirstChild; c != nil; c = c.NextSibling {
					walk(c, true)
				}
				n++
				cost += uint64(text)
				return
			}
		}
		for c := node.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inP)
		}
	}
	walk(root, false)
	return cost, n, text
}

// tooManyParagraphs says why root is beyond what go-trafilatura reads in
// bounded time, or "" when it is not.
func tooManyParagraphs(root *html.Node) string {
	cost, n, text := paragraphCost(root)
	if cost <= maxParagraphCopy {
		return ""
	}
	return fmt.Sprintf("the page has %d paragraphs holding %d KB of text, too many to seek its main content in bounded time", n, text/1000)
}
