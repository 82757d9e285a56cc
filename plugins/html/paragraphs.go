package html

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// go-trafilatura cuts a paragraph before some of its inline elements: the
// paragraph's element ends, and the code span or emphasis and the rest of
// the sentence follow it outside, as its "tail". Its own text output reads
// them as one line; rendered as they stand, the markdown broke the
// sentence into two paragraphs ("The mechanics of" / "`cached_property()`
// are somewhat different…"), most often before a code span or an emphasis
// in a library reference's definitions. rejoinParagraphs puts such
// tails back into a paragraph that stops mid-sentence; after a full stop,
// what follows is its own block (a "Check price" button), and stays so.

// rejoinParagraphs moves the text and inline elements that follow each <p>
// in go-trafilatura's content, up to the next block, back into it
// (isInline: spaces.go).
func rejoinParagraphs(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type != html.ElementNode:
		case c.Data == "p":
			rejoinTail(c)
		default:
			rejoinParagraphs(c)
		}
	}
}

// rejoinTail moves into p what follows it inline, when p stops
// mid-sentence; after a full stop, what follows is a block of its own (a
// button, a caption). An image after a paragraph stands on its own line.
func rejoinTail(p *html.Node) {
	text := textOf(p)
	joinable := func(n *html.Node) bool { return n != nil && isInline(n) && n.Data != "img" }
	if endsSentence(text) || !joinable(p.NextSibling) {
		return
	}
	if touching(text, textOf(p.NextSibling)) {
		// At the cut, go-trafilatura trimmed the space; its own text
		// output puts one there.
		p.AppendChild(space())
	}
	for tail := p.NextSibling; joinable(tail); tail = p.NextSibling {
		p.Parent.RemoveChild(tail)
		p.AppendChild(tail)
	}
}

// endsSentence reports whether text ends as a sentence does, closing
// quotes and brackets aside.
func endsSentence(text string) bool {
	text = strings.TrimRightFunc(text, func(r rune) bool {
		return isBlank(r) || strings.ContainsRune(`"')]»”’`, r)
	})
	last, _ := utf8.DecodeLastRuneInString(text)
	return strings.ContainsRune(".!?:…", last)
}

// touching reports whether texts a and b would run together: a ends and b
// starts with something other than a blank.
func touching(a, b string) bool {
	last, _ := utf8.DecodeLastRuneInString(a)
	first, _ := utf8.DecodeRuneInString(b)
	return last != utf8.RuneError && first != utf8.RuneError && !isBlank(last) && !isBlank(first)
}
