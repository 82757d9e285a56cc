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
//
// A line break set in an emphasis of its own (<b><br></b>) went with the
// empty emphasis, and the words on either side ran together ("**Internal
// Apps**Built"): such an emphasis is replaced by its line breaks.
func flattenEmphasis(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			flattenEmphasis(c)
			switch inner := onlyElementChild(c); {
			case inner != nil && sameEmphasis(c.Data, inner.Data):
				c.RemoveChild(inner)
				n.InsertBefore(inner, c)
				n.RemoveChild(c)
			case isEmphasis(c.Data) && hasElement(c, "br") && strings.TrimFunc(textOf(c), isBlank) == "":
				unwrap(c)
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
	return isBold(outer) && isBold(inner) || isItalic(outer) && isItalic(inner)
}

func isBold(tag string) bool     { return tag == "b" || tag == "strong" }
func isItalic(tag string) bool   { return tag == "i" || tag == "em" }
func isEmphasis(tag string) bool { return isBold(tag) || isItalic(tag) || tag == "u" }
