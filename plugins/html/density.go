package html

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// go-trafilatura removes a paragraph, list or block rich in links as
// boilerplate (its linkDensityTest): when the element's text is short (a
// paragraph under 30 characters, or 60 when it is the last of its parent;
// a list or block under 100, or 300) and its links hold 80% of it, or four
// in five of its links are short (under 10 characters). It counts
// characters, so the marks sift puts around links and beside inline
// elements (links.go, spaces.go), three or more characters a link, pushed
// "Folgen Sie uns auf Facebook, Twitter und Instagram." past the limit:
// go-trafilatura kept it, where it drops it on the page as written.
// dropMarkedLinkParagraphs removes from a declared article's content, as
// go-trafilatura picked it, the paragraphs of two links or more, each to
// another page, that its test finds rich in links when the marks are not
// counted and not when they are. Lists were tried too (a "Mehr zum Thema"
// list among the paragraphs): WCXB's truths hold such lists of apps,
// services and courses on articles and listings, and every variant
// lowered a type (bench/html/BENCHMARKS.md, 2026-12-07).

// dropMarkedLinkParagraphs removes the paragraphs under content that
// go-trafilatura's link-density test would have removed but for the
// marks; hrefs are the links' targets by number.
func dropMarkedLinkParagraphs(content *html.Node, hrefs []string) {
	var doomed []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.Data {
			case "table":
				continue // go-trafilatura weighs a table's links apart
			case "p":
				if keptForMarks(c, hrefs) {
					doomed = append(doomed, c)
					continue
				}
			}
			walk(c)
		}
	}
	walk(content)
	for _, n := range doomed {
		n.Parent.RemoveChild(n)
	}
}

// keptForMarks reports whether go-trafilatura's link-density test finds
// the paragraph n rich in links with sift's marks left out of its text, and
// not with them counted. Only a paragraph of two links or more, each
// leading to another page (hrefs by number): a link to a fragment of the
// page leads within it, and a link alone in a paragraph is weighed by its
// share of the text, which the marks hardly change.
func keptForMarks(n *html.Node, hrefs []string) bool {
	text := textOf(n)
	if !strings.ContainsRune(text, linkClose) {
		return false
	}
	var links []int // each link's text, in characters, without marks
	for _, m := range markedHTMLLink.FindAllStringSubmatch(text, -1) {
		number, _ := utf8.DecodeRuneInString(m[1])
		if i := int(number) - linkBase; i < 0 || i >= len(hrefs) || !linksElsewhereHref(hrefs[i]) {
			return false
		}
		if l := utf8.RuneCountInString(gtTrim(unmarked(m[2]))); l > 0 {
			links = append(links, l)
		}
	}
	if len(links) < 2 {
		return false
	}
	last := nextElement(n) == nil
	plain := utf8.RuneCountInString(gtTrim(unmarked(text)))
	marked := utf8.RuneCountInString(gtTrim(text))
	return linkRich(plain, links, true, last) && !linkRich(marked, links, true, last)
}

// linksElsewhereHref reports whether href leads to another page: not to
// a fragment of this one, nor nowhere.
func linksElsewhereHref(href string) bool {
	href = strings.TrimSpace(href)
	return href != "" && !strings.HasPrefix(href, "#") && !leadsNowhere(href)
}

// linkRich is go-trafilatura's link-density test (linkDensityTest, as
// its default focus runs it) on an element of textLen characters whose
// links hold links characters each: a paragraph (para) or a block, the
// last of its parent or not.
func linkRich(textLen int, links []int, para, last bool) bool {
	if len(links) == 1 && links[0] > 100 && float64(links[0]) > 0.9*float64(textLen) {
		return true
	}
	if textLen >= lengthLimit(para, last) {
		return false
	}
	linked, short := 0, 0
	for _, l := range links {
		linked += l
		if l < 10 {
			short++
		}
	}
	return float64(linked) > 0.8*float64(textLen) ||
		len(links) > 1 && float64(short)/float64(len(links)) > 0.8
}

// unmarked returns s without link marks, its space marks as spaces.
func unmarked(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == spaceMark:
			return ' '
		case !isNotLinkMark(r):
			return -1
		}
		return r
	}, s)
}

// gtTrim collapses whitespace as go-trafilatura's trim does.
func gtTrim(s string) string { return strings.Join(strings.Fields(s), " ") }

// lengthLimit is the length of text from which go-trafilatura's
// link-density test passes an element: a paragraph (para) or a block, the
// last of its parent or not.
func lengthLimit(para, last bool) int {
	switch {
	case para && last:
		return 60
	case para:
		return 30
	case last:
		return 300
	}
	return 100
}
