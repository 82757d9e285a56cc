package html

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// go-trafilatura reads a table cell child by child and keeps what a
// <code> child holds but not the text after it: a reference table's
// "server, location, if" came out as one word, "serverlocationif", and a
// cell of code with markup inside it ("<code><b>break</b>;</code>") not
// at all. A <kbd> keeps the text around it there, and the markdown
// converter writes a <kbd> as a code span, as it writes a <code>.
// keepCellCode renames every one-line <code> inside a <td> or <th>
// (outside a <pre>) <kbd>, and makes a one-line <pre> there a <kbd> of its
// text; code of several lines stays code (code.go makes a block of it).
func keepCellCode(n *html.Node) {
	keepCellCodeIn(n, false)
}

func keepCellCodeIn(n *html.Node, inCell bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.Data {
		case "pre":
			// One line of preformatted text in a cell is code a table can
			// hold; as a block it broke the table into loose lines.
			if text := childrenText(c); inCell && !strings.Contains(strings.TrimSpace(text), "\n") {
				c.Data, c.DataAtom, c.Attr = "kbd", atom.Kbd, nil
				c.FirstChild, c.LastChild = nil, nil
				c.AppendChild(&html.Node{Type: html.TextNode, Data: strings.TrimSpace(text)})
			}
			continue
		case "script", "style", "template", "textarea":
			continue
		case "td", "th":
			keepCellCodeIn(c, true)
			continue
		case "code":
			if inCell && !strings.Contains(textOf(c), "\n") {
				c.Data, c.DataAtom = "kbd", atom.Kbd
			}
		}
		keepCellCodeIn(c, inCell)
	}
}
