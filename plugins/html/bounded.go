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
// one-word paragraphs (400 KB of text) copy 20 GB and run the plugin out of
// memory; a 3.7 MB article of 10,000 paragraphs, 17 GB. 256 MiB is a
// tenth of a second of copying, and fifteen times what the largest of the
// extraction benchmark's 1,802 pages copies once prepared (17 MB,
// WCXB-dev), so no page read there comes near it. It is reached from
// about 11,600 paragraphs of a word, or 1,300 of 300 bytes: a book, whose
// body without its chrome is what a reader wants anyway.
//
// The bounds are not among the ablation's rules (ruleNames): they change
// no page of the benchmark. BenchmarkLargePage switches them off, as the
// rule "bound", to measure what they save.
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

// maxNestedText bounds the text go-trafilatura and go-readability read
// again for every block that holds it. Their link-density test and
// conditional cleaning take the whole text of each <div>, list or table
// (and split it into words): text under d such blocks is read d times,
// and the parser lets a page nest 512 deep. 1,000 paragraphs of a link and
// a few words under 400 nested <div>s are 30 MB read so, and cost them 3 GB
// of allocations and seconds; a 5 MiB page so nested would be minutes.
// 8 MiB is nearly four times what the largest of the benchmark's pages
// reads so once prepared (2.2 MB, WCXB-dev). Only pages of about a
// megabyte of text under eight blocks or more reach it, and they would
// cost seconds too.
const maxNestedText = 8 << 20

// nestingBlocks are the elements whose whole text those passes read.
var nestingBlocks = map[atom.Atom]bool{
	atom.Div: true, atom.Section: true, atom.Article: true, atom.Main: true, atom.Ul: true,
	atom.Ol: true, atom.Dl: true, atom.Table: true, atom.Blockquote: true,
}

// nestedText is the sum, over the text under root, of its bytes times the
// nesting blocks around it; text is the bytes of text and depth the most
// blocks around any of it, for the warning. The text of scripts and styles,
// which go-trafilatura drops first, counts for nothing.
func nestedText(root *html.Node) (cost uint64, text, depth int) {
	var walk func(*html.Node, int)
	walk = func(node *html.Node, d int) {
		switch {
		case node.Type == html.TextNode:
			text += len(node.Data)
			cost += uint64(len(node.Data)) * uint64(d)
			depth = max(depth, d)
			return
		case node.Type == html.ElementNode && (node.DataAtom == atom.Script || node.DataAtom == atom.Style):
			return
		case node.Type == html.ElementNode && nestingBlocks[node.DataAtom]:
			d++
		}
		for c := node.FirstChild; c != nil; c = c.NextSibling {
			walk(c, d)
		}
	}
	walk(root, 0)
	return cost, text, depth
}

// maxNodes bounds the nodes (elements, text, comments) go-trafilatura is
// given. Its own pass, go-readability's and DOM Distiller's, which it
// compares its result with, each walk, clone and query the whole tree,
// at about 20 µs of CPU a node together: a gallery of 100,000 images in
// one <article> (4 MB) cost them 2.2 s and the page 5.7 s of a loaded
// 2-core machine's CPU, 20 to 30 s of its time, and two such pages filled
// the plugin's pool. 50,000 is two and a half times the most nodes of the
// benchmark's 1,802 pages once prepared (19,840, readability's
// wikipedia-2; the most elements, 8,263), so no page read there changes.
const maxNodes = 50_000

// nodeCount counts the nodes under root, root included.
func nodeCount(root *html.Node) int {
	n := 1
	for c := root.FirstChild; c != nil; c = c.NextSibling {
		n += nodeCount(c)
	}
	return n
}

// tooCostly says why root is beyond what go-trafilatura reads in bounded
// time, or "" when it is not.
func tooCostly(root *html.Node) string {
	if cost, n, text := paragraphCost(root); cost > maxParagraphCopy {
		return fmt.Sprintf("the page has %d paragraphs holding %d KB of text, too many to seek its main content in bounded time", n, text/1000)
	}
	if cost, text, depth := nestedText(root); cost > maxNestedText {
		return fmt.Sprintf("the page nests %d KB of text up to %d blocks deep, too deep to seek its main content in bounded time", text/1000, depth)
	}
	if n := nodeCount(root); n > maxNodes {
		return fmt.Sprintf("the page has %d elements and text nodes, too many to seek its main content in bounded time", n)
	}
	return ""
}
