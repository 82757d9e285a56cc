package html

import (
	"strings"

	"golang.org/x/net/html"
)

// Articles end, and sometimes pause, with lists of teasers for other
// articles: "More:", "Further reading", "Related stories". Each item is a
// heading that is one link, then a line or two about the page it leads to
// (a standfirst, a byline). go-trafilatura keeps them: the teasers' words
// outweigh their links. dropTeaserLists removes, from the content of a page
// that declares an article, every list of three or more items that are all
// teasers, and the heading that introduces each. When such lists hold half
// the content's words, they all stay: then the page is a list of articles
// that calls itself one. A list of linked headings with nothing under them
// is left alone too: it may be the article's own index (the companies a
// story covers, the products a guide compares).
const (
	minTeasers   = 3
	teasersShare = 0.5
)

func dropTeaserLists(content *html.Node) {
	lists := matching(content, isTeaserList)
	if len(lists) == 0 {
		return
	}
	if float64(totalWords(lists)) >= teasersShare*float64(words(content)) {
		return
	}
	for _, l := range lists {
		if intro := previousElement(l); intro != nil && isHeading(intro) {
			intro.Parent.RemoveChild(intro)
		}
		l.Parent.RemoveChild(l)
	}
}

// isTeaserList reports whether n is a list of minTeasers or more items, all
// of them teasers.
func isTeaserList(n *html.Node) bool {
	if n.Data != "ul" && n.Data != "ol" {
		return false
	}
	teasers := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.Data != "li" || !isTeaser(c) {
			return false
		}
		teasers++
	}
	return teasers >= minTeasers
}

// isTeaser reports whether item opens with a heading that is one link and
// says more beneath it.
func isTeaser(item *html.Node) bool {
	head := firstElement(item)
	if head == nil || !isHeading(head) || !isOneLink(textOf(head)) {
		return false
	}
	return words(item) > words(head)
}

// isOneLink reports whether text, trimmed, is exactly one marked link
// (links.go).
func isOneLink(text string) bool {
	text = strings.TrimFunc(text, isBlank)
	return strings.HasPrefix(text, string(linkOpen)) && strings.HasSuffix(text, string(linkClose)) &&
		strings.Count(text, string(linkOpen)) == 1
}

func isHeading(n *html.Node) bool {
	switch n.Data {
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return true
	}
	return false
}

// firstElement returns n's first child element, if no text comes before it.
func firstElement(n *html.Node) *html.Node {
	return nearestElement(n.FirstChild, func(c *html.Node) *html.Node { return c.NextSibling })
}

// previousElement returns the element just before n, if only blank text
// lies between them.
func previousElement(n *html.Node) *html.Node {
	return nearestElement(n.PrevSibling, func(c *html.Node) *html.Node { return c.PrevSibling })
}

// nearestElement walks from c by step to the first element, and returns
// it unless text a reader sees comes first.
func nearestElement(c *html.Node, step func(*html.Node) *html.Node) *html.Node {
	for ; c != nil && !isVisibleText(c); c = step(c) {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}
