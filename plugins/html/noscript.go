package html

import (
	"strings"

	"golang.org/x/net/html"
)

// A page parsed as a browser with scripts parses it keeps each <noscript>
// as one raw string, and go-trafilatura then took that markup for text:
// sites that build their pages with scripts (Discourse forums, for one)
// put the whole page there for readers without scripts, and sift returned
// it as "\<div class=…\>" soup. A fetcher runs no
// scripts, so it is such a reader when the page is such a shell: when its
// <noscript>s hold more words than the rest of its body, those holding at
// least noscriptWords are parsed and put in their place. Otherwise the page
// is whole without them, and they go, as a browser with scripts drops them:
// they repeat the page (an article may hold its whole text there a
// second time), plead to turn scripts on, or hold tracking pixels.
const noscriptWords = 20

// openNoscript replaces each <noscript> in the page's body by its parsed
// content when the page is a shell for scripts, and removes it otherwise.
func openNoscript(root *html.Node) {
	var body *html.Node
	var found []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "noscript" {
			if body != nil {
				found = append(found, n)
			}
			return
		}
		if n.Type == html.ElementNode && n.Data == "body" {
			body = n
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	if len(found) == 0 {
		return
	}
	parsed := make([][]*html.Node, len(found))
	held := 0
	for i, n := range found {
		parsed[i] = parseNoscript(n)
		if w := fragmentWords(parsed[i]); w >= noscriptWords {
			held += w
		} else {
			parsed[i] = nil
		}
	}
	shell := held > words(body) // words leaves <noscript> out
	for i, n := range found {
		if shell {
			for _, c := range parsed[i] {
				n.Parent.InsertBefore(c, n)
			}
		}
		n.Parent.RemoveChild(n)
	}
}

// parseNoscript parses what a <noscript> holds, in its parent's context.
func parseNoscript(n *html.Node) []*html.Node {
	var raw strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			raw.WriteString(c.Data)
		}
	}
	nodes, err := html.ParseFragment(strings.NewReader(raw.String()), n.Parent)
	if err != nil {
		return nil
	}
	return nodes
}

func fragmentWords(nodes []*html.Node) int {
	count := 0
	for _, n := range nodes {
		count += words(n)
	}
	return count
}
