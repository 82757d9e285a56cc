package html

import (
	"strings"
	"unicode"

	"github.com/siftd/sift/plugins/html/internal/dom"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// tidy removes from the content what an agent pays tokens for and cannot
// use: images inlined as data: URIs (their alt text stays) or with no src,
// links with no text, headings' permalinks (¶), and links that lead
// nowhere outside the page (javascript:, a bare fragment), whose text
// stays. Links around blocks (a shop's cards) are flattened to one line.
func tidy(n *html.Node) {
	dropEchoingImageLinks(n)
	tidyTree(n)
}

// dropEchoingImageLinks removes the data: images of each link that holds
// nothing but images when another link of the content, with text, leads to
// the same place. A shop's card links its product twice, by its picture
// (a lazy loader's data: placeholder whose alt text names the product, or
// a SKU) and by its name; with the placeholder written as its alt text
// (tidyTree), every product of a grid came twice (a collection of six
// lights: 0.843 → 0.632). The name link says it; the picture's link goes
// with its images.
func dropEchoingImageLinks(n *html.Node) {
	named := map[string]bool{}
	var pictures []*html.Node
	for _, a := range matching(n, func(c *html.Node) bool { return c.Data == "a" && attr(c, "href") != "" }) {
		switch {
		case strings.TrimFunc(textOf(a), isBlank) != "":
			named[attr(a, "href")] = true
		case hasElement(a, "img"):
			pictures = append(pictures, a)
		}
	}
	for _, a := range pictures {
		if !named[attr(a, "href")] {
			continue
		}
		for _, img := range matching(a, func(c *html.Node) bool {
			return c.Data == "img" && strings.HasPrefix(strings.ToLower(strings.TrimSpace(attr(c, "src"))), "data:")
		}) {
			img.Parent.RemoveChild(img)
		}
	}
}

// tidyTree does the rest of tidy's work, element by element.
func tidyTree(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		tidyTree(c)
		if c.Type == html.ElementNode {
			switch c.Data {
			case "img":
				// An image inlined as data: is bytes an agent cannot read, and
				// its alt text stays. One with no src (a script loads it)
				// renders as nothing, and goes: its alt text only
				// cluttered product grids.
				switch src := strings.ToLower(strings.TrimSpace(attr(c, "src"))); {
				case src == "":
					n.RemoveChild(c)
				case strings.HasPrefix(src, "data:"):
					replaceWithText(c, attr(c, "alt"))
				}
			case "b", "strong", "summary":
				// A question written as a heading inside <summary> (which
				// go-trafilatura makes a <b>) stays a heading: rendered as
				// bold around a heading it came out as "****Question****".
				if only := onlyElementChild(c); only != nil && isHeading(only) {
					unwrap(c)
				}
			case "a":
				switch {
				case strings.TrimFunc(textOf(c), isBlank) == "" && !hasElement(c, "img"),
					isPermalink(attr(c, "href"), textOf(c)):
					n.RemoveChild(c)
				case leadsNowhere(attr(c, "href")):
					unwrap(c)
				default:
					flattenLink(c)
				}
			}
		}
		c = next
	}
}

// blockTags are the elements that start a line of their own.
var blockTags = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "dd": true,
	"details": true, "div": true, "dl": true, "dt": true, "fieldset": true,
	"figcaption": true, "figure": true, "footer": true, "form": true, "h1": true,
	"h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "header": true,
	"hgroup": true, "li": true, "main": true, "nav": true, "ol": true, "p": true,
	"pre": true, "section": true, "summary": true, "table": true, "tbody": true,
	"td": true, "tfoot": true, "th": true, "thead": true, "tr": true, "ul": true,
}

// flattenLink turns the blocks inside a link into runs of its text, so
// that the link renders on one line. A card is a link around an image, a
// heading and a price; rendered as it stands, its text ran over several
// lines joined by hard breaks ("[![…](…)  \\" … "+5 Free
// Accessories](…)"), which readers that take markdown line by line see
// as a "[" and the link's raw target.
func flattenLink(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			flattenLink(c)
			switch {
			case c.Data == "br" || c.Data == "hr":
				n.InsertBefore(space(), c)
				n.RemoveChild(c)
			case blockTags[c.Data]:
				n.InsertBefore(space(), c)
				n.InsertBefore(space(), next) // appended when c is last
				unwrap(c)
			}
		}
		c = next
	}
}

func space() *html.Node { return &html.Node{Type: html.TextNode, Data: " "} }

// leadsNowhere reports whether href points at nothing an agent could
// fetch: a script, or a place on this same page.
func leadsNowhere(href string) bool {
	h := strings.ToLower(strings.TrimSpace(href))
	return h == "" || strings.HasPrefix(h, "#") || strings.HasPrefix(h, "javascript:")
}

// isPermalink reports whether a link is a heading's permalink: a link to a
// place on the page whose text is a symbol (¶, #, §, 🔗), which means
// nothing without the page around it.
func isPermalink(href, text string) bool {
	return strings.HasPrefix(strings.TrimSpace(href), "#") &&
		strings.IndexFunc(stripLinkMarks(text), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) < 0
}

// prune removes every element under n that match reports, and looks no
// further into what it removes.
func prune(n *html.Node, match func(*html.Node) bool) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && match(c) {
			n.RemoveChild(c)
		} else {
			prune(c, match)
		}
		c = next
	}
}

// matching returns the elements under n that match reports, without
// looking into them.
func matching(n *html.Node, match func(*html.Node) bool) []*html.Node {
	return dom.Matching(n, match)
}

// bodyOf returns the <body> of the document under root, or root if it
// has none.
func bodyOf(root *html.Node) *html.Node {
	if body := matching(root, func(n *html.Node) bool { return n.Data == "body" }); len(body) > 0 {
		return body[0]
	}
	return root
}

// isWithin reports whether n is inside ancestor, or is it.
func isWithin(n, ancestor *html.Node) bool {
	for p := n; p != nil; p = p.Parent {
		if p == ancestor {
			return true
		}
	}
	return false
}

// unwrap replaces n by its children.
func unwrap(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		n.RemoveChild(c)
		n.Parent.InsertBefore(c, n)
		c = next
	}
	n.Parent.RemoveChild(n)
}

// replaceWithText replaces n by a text node holding text, or removes it.
func replaceWithText(n *html.Node, text string) {
	if text = strings.TrimSpace(text); text != "" {
		n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: text}, n)
	}
	n.Parent.RemoveChild(n)
}

// hasElement reports whether an element named tag is under n.
func hasElement(n *html.Node, tag string) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == tag || hasElement(c, tag) {
			return true
		}
	}
	return false
}

// breakAfterSummaries puts a line break after each <summary> that text
// or an inline element follows in its <details>. A browser lays the
// summary out as a block of its own; go-trafilatura makes it a <b>, so
// the disclosed text ran into it ("**More**The details…").
func breakAfterSummaries(root *html.Node) {
	for _, s := range matching(root, func(n *html.Node) bool { return n.DataAtom == atom.Summary }) {
		next := s.NextSibling
		for next != nil && next.Type == html.TextNode && strings.TrimFunc(next.Data, isBlank) == "" {
			next = next.NextSibling
		}
		if next == nil || next.Type == html.ElementNode && !inlineElements[next.Data] {
			continue
		}
		s.Parent.InsertBefore(element(atom.Br), s.NextSibling)
	}
}
