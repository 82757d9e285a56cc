package html

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The markdown converter renders a quote or a list by rendering its
// content, then trimming and prefixing every line of it: a quote nested
// in a quote is read again at every level, so a page of quotes or lists
// nested hundreds deep above a mebibyte of text took 10 s
// (BenchmarkLargePage/deep-quotes, deep-lists; the parser allows 512
// levels). No reader follows a quote 480 levels deep, and no markdown
// viewer indents one: capNesting writes the quotes inside maxBlockNesting
// quotes, and the lists and items inside maxBlockNesting lists, as plain
// blocks before the converter reads the content. Their text stays, in
// order, each block and item on its line.

// maxBlockNesting is the deepest quote in quotes, and list in lists, that the
// markdown nests.
const maxBlockNesting = 16

// capNesting writes the quotes and lists under n past maxBlockNesting levels
// of their kind as plain blocks.
func capNesting(n *html.Node) {
	var walk func(n *html.Node, quotes, lists int)
	walk = func(n *html.Node, quotes, lists int) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			q, l := quotes, lists
			switch c.Data {
			case "blockquote":
				if q++; q > maxBlockNesting {
					c.Data, c.DataAtom = "div", atom.Div
				}
			case "ul", "ol":
				if l++; l > maxBlockNesting {
					c.Data, c.DataAtom = "div", atom.Div
					for li := c.FirstChild; li != nil; li = li.NextSibling {
						if li.Type == html.ElementNode && li.Data == "li" {
							li.Data, li.DataAtom = "div", atom.Div
						}
					}
				}
			}
			walk(c, q, l)
		}
	}
	walk(n, 0, 0)
}
