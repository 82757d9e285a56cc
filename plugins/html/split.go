package html

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// Some sites write an article's body in parts, siblings of one kind: a
// Webflow blog's "rich-text-block main-blog-post intro" holds the opening
// paragraphs, and a "main-blog-post rich-text-block" after a disclosure
// and a map holds the rest. go-trafilatura picks one container, the
// larger, and the article came out without its opening (WCXB 0332 lost
// nine paragraphs its truth holds). restoreSplitBody finds the container
// of the content's first paragraph in the page and, up to splitLevels
// above it, the nearest element with classes whose siblings before it
// carry every one of them; those siblings that hold prose no link leads
// and the content lacks go before the content, copied as go-trafilatura
// copies (copyElements).

// splitLevels is how far above the first paragraph the body's container
// is sought.
const splitLevels = 4

// splitSiblings is how many element siblings before the container are
// read.
const splitSiblings = 8

// splitMinWords is the fewest words a part must hold.
const splitMinWords = 30

func restoreSplitBody(root, content *html.Node) {
	if content == nil {
		return
	}
	first := firstProse(content)
	if first == "" {
		return
	}
	anchor := findElement(bodyOf(root), func(n *html.Node) bool {
		return n.Data == "p" && squeezed(textOf(n)) == first
	})
	if anchor == nil {
		return
	}
	have := squeezed(textOf(content))
	a := anchor.Parent
	for level := 0; a != nil && a.Type == html.ElementNode && a.Data != "body" && level < splitLevels; level++ {
		if parts := bodyParts(a, have); len(parts) > 0 {
			at := content.FirstChild
			for _, part := range parts {
				content.InsertBefore(copyElements(part), at)
			}
			return
		}
		a = a.Parent
	}
}

// firstProse is the text of the content's first paragraph of eight words
// or more, blanks aside, or "".
func firstProse(content *html.Node) string {
	p := findElement(content, func(n *html.Node) bool {
		return n.Data == "p" && len(strings.Fields(textOf(n))) >= 8
	})
	if p == nil {
		return ""
	}
	return squeezed(textOf(p))
}

// bodyParts returns the siblings before a, in order, whose classes hold
// every class of a and that hold prose have lacks.
func bodyParts(a *html.Node, have string) []*html.Node {
	classes := strings.Fields(attr(a, "class"))
	if len(classes) == 0 {
		return nil
	}
	var parts []*html.Node
	seen := 0
	for s := a.PrevSibling; s != nil && seen < splitSiblings; s = s.PrevSibling {
		if s.Type != html.ElementNode {
			continue
		}
		seen++
		if s.Data != a.Data || !hasClasses(s, classes) || !isProsePart(s, have) {
			continue
		}
		parts = append([]*html.Node{s}, parts...)
	}
	return parts
}

// hasClasses reports whether n's class attribute holds each of classes.
func hasClasses(n *html.Node, classes []string) bool {
	own := strings.Fields(attr(n, "class"))
	for _, c := range classes {
		if !slices.Contains(own, c) {
			return false
		}
	}
	return true
}

// isProsePart reports whether a part holds two paragraphs or more, of
// splitMinWords words or more together, most of them outside links, no
// heading (a teaser for another post has its title), and a first
// paragraph have lacks.
func isProsePart(n *html.Node, have string) bool {
	ps := matching(n, func(c *html.Node) bool { return c.Data == "p" })
	if len(ps) < 2 || hasHeading(n) || strings.Contains(have, squeezed(textOf(ps[0]))) {
		return false
	}
	total, linked := 0, 0
	for _, p := range ps {
		t, l := linkedWords(p)
		total, linked = total+t, linked+l
	}
	return total >= splitMinWords && linked*2 < total
}

// linkedWords returns the words under n, and those of them in links.
func linkedWords(n *html.Node) (total, linked int) {
	for _, l := range matching(n, func(c *html.Node) bool { return c.Data == "a" }) {
		linked += len(strings.Fields(textOf(l)))
	}
	return len(strings.Fields(textOf(n))), linked
}
