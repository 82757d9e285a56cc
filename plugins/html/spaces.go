package html

import (
	"strings"
	"unicode"
	"unicode/utf8"

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
			if !literal {
				moveEdgeSpaces(c)
			}
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

// moveEdgeSpaces moves the whitespace at the edges of an inline
// element's text out of the element when more inline content follows (or
// precedes) it there: "<b>for </b><a>regular</a>" becomes
// "<b>for</b>" + mark + "<a>regular</a>", as a browser renders it.
// markText alone sees only the text's own siblings, and go-trafilatura
// trims the text of a list item's or a cell's elements, so "for" and
// "regular" ran together ("forregular") wherever the space was written
// inside the element.
func moveEdgeSpaces(t *html.Node) {
	s := t.Data
	if s == "" || strings.TrimSpace(s) == "" {
		return
	}
	if r, _ := utf8.DecodeLastRuneInString(s); unicode.IsSpace(r) && t.NextSibling == nil {
		if a := edgeAncestor(t, true); a != nil {
			s = strings.TrimRightFunc(s, unicode.IsSpace)
			spaceAfter(a)
		}
	}
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsSpace(r) && t.PrevSibling == nil {
		if a := edgeAncestor(t, false); a != nil {
			s = strings.TrimLeftFunc(s, unicode.IsSpace)
			spaceBefore(a)
		}
	}
	t.Data = s
}

// spaceAfter puts a space after a: at the start of the text that follows
// it, or as a text of its own between a and the element that follows.
// Either is what the page would hold had it written the space outside a,
// and markText marks it so.
func spaceAfter(a *html.Node) {
	if next := a.NextSibling; next.Type == html.TextNode {
		next.Data = string(spaceMark) + next.Data
		return
	}
	a.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, a.NextSibling)
}

// spaceBefore puts a space before a, as spaceAfter does after it, marked
// already: markSpacesIn has passed what stands before a.
func spaceBefore(a *html.Node) {
	if prev := a.PrevSibling; prev.Type == html.TextNode {
		prev.Data += string(spaceMark)
		return
	}
	a.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: string(spaceMark)}, a)
}

// edgeAncestor climbs from t through the inline elements it ends (or
// starts, unless after) to the first one with a sibling on that side, and
// returns it when that sibling continues the line: the element out of
// which the edge's whitespace moves. It returns nil otherwise.
func edgeAncestor(t *html.Node, after bool) *html.Node {
	kept := false
	for n := t.Parent; n != nil && n.Type == html.ElementNode && inlineElements[n.Data] && n.Parent != nil; n = n.Parent {
		kept = kept || keptInline[n.Data]
		sib := n.PrevSibling
		if after {
			sib = n.NextSibling
		}
		if sib != nil {
			if kept && continues(sib, after) {
				return n
			}
			return nil
		}
	}
	return nil
}

// keptInline are the inline elements go-trafilatura keeps as elements of
// its own (its tag catalogue), whose text it trims. The others (a <span>,
// a <font>) it unwraps, their text running on with the text beside them,
// spaces and all: moving their spaces out changes nothing but the words
// the region rules count, which count the marks.
var keptInline = map[string]bool{
	"b": true, "strong": true, "i": true, "em": true, "u": true, "kbd": true, "samp": true,
	"tt": true, "var": true, "sub": true, "sup": true, "mark": true, "del": true, "s": true,
	"strike": true, "q": true,
}

// continues reports whether sib, the sibling on one side of an inline
// element, runs on with its text on the same line: an inline element, or
// text that does not begin (or end, on the element's left) with
// whitespace, which markText marks where it is, and which before a block
// or the end of a list item separates nothing.
func continues(sib *html.Node, after bool) bool {
	if sib.Type != html.TextNode {
		return isInline(sib)
	}
	if sib.Data == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(sib.Data)
	if !after {
		r, _ = utf8.DecodeLastRuneInString(sib.Data)
	}
	return !unicode.IsSpace(r)
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

// keepBreaks puts a space after each line break that an element follows
// directly ("available<br><strong>Cons:</strong>"). go-trafilatura
// removes from a paragraph every <br> with no text after it before the
// next element, not only a trailing one, and the lines ran together:
// "models available**Cons:** Most often"; its text keeps them apart. A
// space, not a space mark: a text of a mark alone counts as a word for
// the region rules (words), and a listing's region moved.
// Preformatted text is left alone.
func keepBreaks(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch c.Data {
		case "pre", "code", "textarea", "script", "style", "head":
			continue
		case "br":
			if next := c.NextSibling; next != nil && next.Type == html.ElementNode && next.Data != "br" && next.Data != "hr" {
				n.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, next)
			}
			continue
		}
		keepBreaks(c)
	}
}
