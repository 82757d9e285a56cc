package html

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// restoreCodeBlocks turns go-trafilatura's <code> blocks back into <pre>:
// it rewrites <pre><code> as <code><code>, keeping the line breaks, and the
// markdown converter would render that as one inline code span.
func restoreCodeBlocks(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		// go-trafilatura builds elements by name, without atoms.
		if c.Data == "pre" {
			continue
		}
		if c.Data == "code" && strings.Contains(textOf(c), "\n") {
			c.Data, c.DataAtom = "pre", atom.Pre
			continue
		}
		restoreCodeBlocks(c)
	}
}

// separateTopLevel wraps in a paragraph of its own each inline element
// that stands beside another at the top of go-trafilatura's content. Each
// element there is a block in go-trafilatura's model (its text puts them
// on lines of their own), but rendered as HTML they ran together: a
// reference page's heading "<code>LIMIT</code> and <code>OFFSET</code>",
// whose heading and " and " go-trafilatura lost, came out as one code
// span, "`LIMITOFFSET`".
func separateTopLevel(content *html.Node) {
	if content == nil {
		return
	}
	afterInline := false
	for c := content.FirstChild; c != nil; {
		next := c.NextSibling
		inline := c.Type == html.ElementNode && isInline(c)
		if inline && (afterInline || next != nil && next.Type == html.ElementNode && isInline(next)) {
			p := element(atom.P)
			content.InsertBefore(p, c)
			content.RemoveChild(c)
			p.AppendChild(c)
		}
		afterInline = inline
		c = next
	}
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
