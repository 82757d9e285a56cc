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
