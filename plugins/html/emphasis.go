package html

import (
	"strings"

	"golang.org/x/net/html"
)

// Editors nest one emphasis in another of the same weight
// (<b><strong>Term</strong></b>), and go-trafilatura moves what follows
// such a pair in a list item: "**Term**: definition" came out as
// "**Term**definition**:**", two words run together and a colon at the
// end. flattenEmphasis unwraps every bold element whose only content is
// another bold element, and every italic one whose only content is
// another italic element: the page reads the same.
func flattenEmphasis(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			flattenEmphasis(c)
			if inner := onlyElementChild(c); inner != nil && sameEmphasis(c.Data, inner.Data) {
				c.RemoveChild(inner)
				n.InsertBefore(inner, c)
				n.RemoveChild(c)
			}
		}
		c = next
	}
}

// onlyElementChild returns n's one element child when n holds nothing
// else but whitespace.
func onlyElementChild(n *html.Node) *html.Node {
	var only *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.ElementNode && only == nil:
			only = c
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
		default:
			return nil
		}
	}
	return only
}

func sameEmphasis(outer, inner string) bool {
	bold := func(s string) bool { return s == "b" || s == "strong" }
	italic := func(s string) bool { return s == "i" || s == "em" }
	return bold(outer) && bold(inner) || italic(outer) && italic(inner)
}
