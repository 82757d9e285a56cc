package html

import (
	"strings"

	"golang.org/x/net/html"
)

// The markdown converter (html-to-markdown's base plugin, preRenderRemove)
// first removes comments and the elements it does not render, then joins
// each run of adjacent text nodes into its first, one string at a time
// (prev.Data += c.Data): quadratic in the run. The images option marks
// every image as a text node (objects.go), so a gallery of images in a row
// is such a run: 40,000 images cost the converter 2.8 s of a loaded
// machine's CPU, 100,000 tens of seconds. mergeTextRuns does that first
// step in one walk, each run joined at once, and leaves the converter
// nothing to join; its output is unchanged.

// convertRemoved are the node names the converter's base plugin removes
// (TagTypeRemove, html-to-markdown v2.5.2; no other plugin of sift's
// converter registers one).
var convertRemoved = map[string]bool{
	"#comment": true, "head": true, "script": true, "style": true, "link": true, "meta": true,
	"iframe": true, "noscript": true, "input": true, "textarea": true,
}

// converterNodeName is a node's name as the converter reads it
// (github.com/JohannesKaufmann/dom NodeName).
func converterNodeName(n *html.Node) string {
	switch n.Type {
	case html.ErrorNode:
		return "#error"
	case html.TextNode:
		return "#text"
	case html.DocumentNode:
		return "#document"
	case html.CommentNode:
		return "#comment"
	case html.DoctypeNode, html.ElementNode:
		return n.Data
	}
	return ""
}

// mergeTextRuns removes the nodes under n the converter removes and joins
// each run of adjacent text nodes into its first, as the converter would.
func mergeTextRuns(n *html.Node) {
	var b strings.Builder
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case convertRemoved[converterNodeName(c)]:
			n.RemoveChild(c)
		case c.Type == html.TextNode:
			// c heads a run: join the text nodes that follow it, past
			// the nodes the converter removes.
			b.Reset()
			b.WriteString(c.Data)
			joined := false
			for next != nil && (next.Type == html.TextNode || convertRemoved[converterNodeName(next)]) {
				after := next.NextSibling
				if next.Type == html.TextNode {
					b.WriteString(next.Data)
					joined = true
				}
				n.RemoveChild(next)
				next = after
			}
			if joined {
				c.Data = b.String()
			}
		default:
			mergeTextRuns(c)
		}
		c = next
	}
}
