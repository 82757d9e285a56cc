package html

import (
	"regexp"
	"strings"

	"github.com/go-shiori/dom"
	"golang.org/x/net/html"
)

// go-trafilatura rewrites a <blockquote> as a flat run of its descendants'
// texts and strips the quotes inside it: a list in a quote lost its <ul>
// and came out as plain lines, an item's code span ran into its text
// ("Para itemc = 3" as text), and a quote in a quote was one level with
// it. The whole page renders them right ("> - item", "> > inner").
// restoreQuoteStructure puts the page's own quote back in place of such a
// flat one when the two hold the same text, blanks aside: only the
// structure changes, never a word. The copy is made as go-trafilatura
// copies content (copyElements).
func restoreQuoteStructure(root, content *html.Node) {
	if content == nil || !hasElement(content, "blockquote") {
		return
	}
	flat := matching(content, func(n *html.Node) bool { return n.Data == "blockquote" })
	flat = keepFlat(flat)
	if len(flat) == 0 {
		return
	}
	// The page's outermost quotes that hold a structure go-trafilatura
	// loses, by their text.
	pageQuotes := map[string]*html.Node{}
	for _, q := range matching(root, func(n *html.Node) bool { return n.Data == "blockquote" }) {
		if isWithin(q, content) || !holdsQuoteStructure(q) {
			continue
		}
		text, ok := textUpTo(q, maxQuoteText)
		// A table is left as go-trafilatura wrote it: the copy would
		// unwrap its cells into one run of text.
		if !ok || hasElement(q, "table") {
			continue
		}
		if key := squeezed(text); key != "" && pageQuotes[key] == nil {
			pageQuotes[key] = q
		}
	}
	for _, q := range flat {
		page := pageQuotes[squeezed(textOf(q))]
		if page == nil {
			continue
		}
		q.Parent.InsertBefore(copyElements(page), q)
		q.Parent.RemoveChild(q)
	}
}

// maxQuoteText bounds the text of a page's quote restoreQuoteStructure
// compares: quotes nested hundreds deep above a mebibyte of text were
// read whole at every level (BenchmarkLargePage/deep-quotes).
const maxQuoteText = 64 << 10

// keepFlat keeps the quotes that hold no structure of their own: no list
// and no quote.
func keepFlat(quotes []*html.Node) []*html.Node {
	kept := quotes[:0]
	for _, q := range quotes {
		if !holdsQuoteStructure(q) {
			kept = append(kept, q)
		}
	}
	return kept
}

// holdsQuoteStructure reports whether a quote holds a list or a quote.
func holdsQuoteStructure(q *html.Node) bool {
	return findElement(q, func(c *html.Node) bool {
		switch c.Data {
		case "ul", "ol", "blockquote":
			return true
		}
		return false
	}) != nil
}

// squeezed is s without its blanks (spaceMark among them): go-trafilatura
// trims and joins texts, so only the characters are compared.
func squeezed(s string) string {
	return strings.Map(func(r rune) rune {
		if isBlank(r) {
			return -1
		}
		return r
	}, s)
}

// copyKept are the elements a copy of the page's content keeps as they
// are: those go-trafilatura keeps, and the list items and blocks it reads.
var copyKept = map[string]bool{
	"blockquote": true, "p": true, "div": true, "ul": true, "ol": true, "li": true,
	"dl": true, "dt": true, "dd": true, "pre": true, "code": true, "q": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"em": true, "i": true, "b": true, "strong": true, "u": true, "kbd": true,
	"samp": true, "tt": true, "var": true, "sub": true, "sup": true,
	"del": true, "s": true, "strike": true, "br": true, "hr": true,
}

// copyElements copies an element of the page (a quote, a list item) as
// go-trafilatura copies content: no attribute (a list's start rides in
// its text, liststart.go), its links unwrapped onto one line, their text
// keeping the link marks from which the links are written again
// (links.go), other elements unwrapped to their text,
// and those with no text (images, which ride as marked text when asked
// for, objects.go) left out.
func copyElements(q *html.Node) *html.Node {
	c := dom.Clone(q, true)
	c.Attr = nil
	keepCopiedElements(c)
	return c
}

func keepCopiedElements(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			if c.Data == "a" {
				// Its marks stand beside it or inside it, and the link is
				// written again only from marks on one line (tidy's
				// flattenLink does the same on the whole page).
				flattenLink(c)
				trimInsideLinkMarks(c)
			}
			keepCopiedElements(c)
			switch {
			case copyKept[c.Data]:
				c.Attr = nil
			case c.FirstChild == nil:
				n.RemoveChild(c)
			default:
				unwrap(c)
			}
		} else if c.Type != html.TextNode {
			n.RemoveChild(c)
		}
		c = next
	}
}

// blanksInsideLink are the blanks just inside a link's marks.
var blanksInsideLink = regexp.MustCompile(`(\x{E001}[\x{F0000}-\x{FFFFD}])[\s\x{E000}]+|[\s\x{E000}]+(\x{E002})`)

// trimInsideLinkMarks removes the blanks just inside the link marks of
// the text under a: flattenLink puts a space on each side of a block,
// which at a link's edges stood between the list marker and the link
// ("-  [Carson City homes for sale](…) ").
func trimInsideLinkMarks(a *html.Node) {
	mergeTextRuns(a)
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				c.Data = blanksInsideLink.ReplaceAllString(c.Data, "$1$2")
			}
			walk(c)
		}
	}
	walk(a)
}
