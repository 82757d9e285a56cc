package html

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// go-trafilatura trims the text before and after every element, so
// "Buy <a>Akko</a> switches" comes out as "Buy<a>Akko</a>switches" and the
// words run together. Before extraction, markSpaces puts a private-use
// marker beside each whitespace that borders an element; trimming keeps
// the marker, and restoreSpaces turns markers back into single spaces in
// the markdown.

const spaceMark = '\uE000'

// markSpaces marks boundary whitespace in the text nodes under n, leaving
// non-text elements alone.
func markSpaces(n *html.Node) { markSpacesIn(n, false) }

// markSpacesIn marks the text nodes under n. In preformatted text
// (literal) a node of whitespace alone is left as it is, since it may be
// indentation; the words beside tags are still kept apart, which
// go-trafilatura ran together in man pages ("the behavior of<b>grep</b>is").
func markSpacesIn(n *html.Node, literal bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if !literal || strings.TrimSpace(c.Data) != "" {
				markText(c)
			}
		case html.ElementNode:
			switch c.Data {
			case "textarea", "script", "style", "head":
				continue
			case "pre", "code":
				markSpacesIn(c, true)
				continue
			}
			markSpacesIn(c, literal)
		}
	}
}

func markText(t *html.Node) {
	s := t.Data
	if s == "" {
		return
	}
	first, last := rune(s[0]), rune(s[len(s)-1])
	leading := unicode.IsSpace(first) && isInline(t.PrevSibling)
	trailing := unicode.IsSpace(last) && isInline(t.NextSibling)
	if strings.TrimSpace(s) == "" {
		if leading && trailing {
			t.Data = string(spaceMark)
		}
		return
	}
	if leading {
		s = string(spaceMark) + s
	}
	if trailing {
		s += string(spaceMark)
	}
	t.Data = s
}

// inlineElements run on with the text beside them, so a space between them
// and that text separates words. Beside a block (a list item, a
// paragraph) no mark is needed, and marking the whitespace between blocks
// made go-trafilatura take their parent for a paragraph of text: a forum
// thread came out as a seventh of its words.
var inlineElements = map[string]bool{
	"a": true, "abbr": true, "b": true, "bdi": true, "bdo": true, "big": true, "cite": true,
	"code": true, "data": true, "del": true, "dfn": true, "em": true, "font": true, "i": true,
	"img": true, "ins": true, "kbd": true, "label": true, "mark": true, "q": true, "s": true,
	"samp": true, "small": true, "span": true, "strike": true, "strong": true, "sub": true,
	"sup": true, "time": true, "tt": true, "u": true, "var": true,
}

// isInline reports whether n is an inline element or text.
func isInline(n *html.Node) bool {
	if n == nil {
		return false
	}
	return n.Type == html.TextNode || n.Type == html.ElementNode && inlineElements[n.Data]
}

// restoreSpaces turns each run of markers (with the blanks around it) into
// one space, and drops the runs that ended up at the start or end of a
// line, keeping the line's indentation.
func restoreSpaces(s string) string {
	if !strings.ContainsRune(s, spaceMark) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		restoreLine(&b, line)
	}
	return b.String()
}

func restoreLine(b *strings.Builder, line string) {
	blankSoFar := true
	for {
		j := strings.IndexRune(line, spaceMark)
		if j < 0 {
			b.WriteString(line)
			return
		}
		before := strings.TrimRight(line[:j], " \t")
		rest := strings.TrimLeft(line[j:], markAndBlanks)
		switch {
		case blankSoFar && before == "":
			b.WriteString(line[:j]) // indentation
		case rest == "":
			b.WriteString(before)
		default:
			b.WriteString(before)
			b.WriteByte(' ')
		}
		blankSoFar = blankSoFar && before == ""
		line = rest
	}
}

const markAndBlanks = string(spaceMark) + " \t"

// readWords counts the words of the text under n as a reader sees them:
// not the space marks, nor the link marks (links.go), which stand between
// words as words of their own. words counts the marks, and the rules that
// weigh regions by it (items, wider regions) were measured so; the
// landmarks' guard compares the words of the landmarks with the body's,
// and there the marks between a page's empty inline elements outside its
// landmarks outweighed those inside them (a shop's page lost every word).
func readWords(n *html.Node) int {
	switch {
	case n.Type == html.TextNode:
		count := 0
		for field := range strings.FieldsSeq(n.Data) {
			if strings.ContainsFunc(field, isReadRune) {
				count++
			}
		}
		return count
	case n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style" || n.Data == "template" || n.Data == "noscript"):
		return 0
	}
	count := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		count += readWords(c)
	}
	return count
}

// isReadRune reports whether r is text rather than a mark sift put in the
// page (a space's or a link's).
func isReadRune(r rune) bool { return r != spaceMark && isNotLinkMark(r) }
