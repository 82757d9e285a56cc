package html

import (
	"math"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// flattenPreformatted writes each <pre> of several lines as
// <pre><code>text</code></pre>: the elements inside become their text
// (literalText), in a <code> around all of it. Markdown's code blocks
// hold no markup anyway, and go-trafilatura read other shapes wrongly: it
// moved a block's inline elements behind its text (a synopsis
// "*select_statement* UNION … *select_statement*" came out as
// "UNION … select_statementselect_statement"), and it ran the lines of a
// <pre> without a <code> into one. In a table cell (a highlighter's
// table of line numbers and code) no <code> is added: go-trafilatura drops
// a cell's <code>, and a page's every example went with it.
func flattenPreformatted(n *html.Node) {
	unwrapCodeFigures(n)
	flattenPreformattedIn(n, false)
}

// unwrapCodeFigures makes each <figure> that holds a code block and no
// image (a book's numbered listing: mdBook's "Listing 9-3: Opening a
// file") a <div>, its caption a paragraph: go-trafilatura removes figures
// whole, and the Rust book's chapters lost every listing.
func unwrapCodeFigures(root *html.Node) {
	var figures []*html.Node
	walkElements(root, func(c *html.Node) bool {
		if c.DataAtom == atom.Figure {
			figures = append(figures, c)
		}
		return true
	})
	for _, f := range figures {
		if findElement(f, func(c *html.Node) bool { return c.DataAtom == atom.Pre }) == nil || holdsMedia(f) {
			continue
		}
		f.Data, f.DataAtom = "div", atom.Div
		walkElements(f, func(c *html.Node) bool {
			if c.DataAtom == atom.Figcaption {
				c.Data, c.DataAtom = "p", atom.P
				return false
			}
			return c.DataAtom != atom.Pre
		})
	}
}

// holdsMedia reports whether n holds an image, a video or a frame outside
// its code blocks (whose buttons are drawn with <svg>).
func holdsMedia(n *html.Node) bool {
	return findElement(n, func(c *html.Node) bool {
		switch c.DataAtom {
		case atom.Img, atom.Picture, atom.Video, atom.Iframe, atom.Canvas, atom.Object, atom.Embed:
			return true
		case atom.Svg:
			for p := c.Parent; p != nil && p != n; p = p.Parent {
				if p.DataAtom == atom.Pre {
					return false
				}
			}
			return true
		}
		return false
	}) != nil
}

func flattenPreformattedIn(n *html.Node, inCell bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.Data != "pre" {
			flattenPreformattedIn(c, inCell || c.Data == "td" || c.Data == "th")
			continue
		}
		inner := c
		if only := onlyElementChild(c); only != nil && only.Data == "code" {
			inner = only
		}
		// One text node: the lines' indentation stays where it is, which
		// the space markers at the edges of separate nodes lost. The
		// block's language goes ahead of it (codelang.go).
		if inner.FirstChild != nil {
			raw := childrenText(inner)
			text := blockMark(codeLanguage(c), !inCell && !strings.Contains(strings.TrimSpace(raw), "\n")) + markLines(raw)
			inner.FirstChild, inner.LastChild = nil, nil
			inner.AppendChild(&html.Node{Type: html.TextNode, Data: text})
		}
		// A block of one line stays as it is: go-trafilatura keeps it,
		// and in a table cell a <code> inside would go.
		if inner == c && !inCell && strings.Contains(strings.TrimSpace(textOf(c)), "\n") {
			code := element(atom.Code)
			for k := c.FirstChild; k != nil; k = c.FirstChild {
				c.RemoveChild(k)
				code.AppendChild(k)
			}
			c.AppendChild(code)
		}
	}
}

// go-trafilatura collapses the whitespace of a block it reads as a
// paragraph's text, a <pre> in a definition list's <dd> among them (the
// examples of Python's library reference): the block came out as one
// line, its indentation gone. markLines marks each line break and each
// blank of a line's indentation in a block's text, and restoreLines puts
// them back in go-trafilatura's output; the marks are not whitespace, so
// collapsing leaves them, and the line break stays beside its mark so
// that the words still stand apart.
const (
	lineMark   = '\uE00A'
	indentMark = '\uE00B'
	tabMark    = '\uE00C'
)

// markLines marks the line breaks and indentation of a block's text: the
// blanks a line starts with, its tabs, and every blank after the first of
// a run within it (a console's "...     return x").
func markLines(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	lineStart, afterBlank := true, false
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteRune(lineMark)
			b.WriteByte('\n')
			lineStart, afterBlank = true, false
			continue
		case r == '\t':
			b.WriteRune(tabMark)
		case r == ' ' && (lineStart || afterBlank):
			b.WriteRune(indentMark)
		default:
			b.WriteRune(r)
		}
		afterBlank = r == ' ' || r == '\t'
		lineStart = lineStart && afterBlank
	}
	return b.String()
}

// restoreLines turns the marks of markLines in the text under n back into
// line breaks and indentation, with the whitespace go-trafilatura left
// after each line's mark.
func restoreLines(n *html.Node) {
	if n == nil {
		return
	}
	if n.Type == html.TextNode {
		n.Data = unmarkLines(n.Data)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		restoreLines(c)
	}
}

func unmarkLines(s string) string {
	// Three searches for one rune each, not ContainsAny: with runes past
	// ASCII that decodes every rune of every text and allocated the set,
	// a twentieth of sift's own time on readability's pages.
	if !strings.ContainsRune(s, lineMark) && !strings.ContainsRune(s, indentMark) && !strings.ContainsRune(s, tabMark) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	afterLine := false
	for _, r := range s {
		switch {
		case r == lineMark:
			b.WriteByte('\n')
			afterLine = true
			continue
		case afterLine && (r == ' ' || r == '\t' || r == '\n' || r == '\r'):
			continue
		case r == indentMark:
			b.WriteByte(' ')
		case r == tabMark:
			b.WriteByte('\t')
		default:
			b.WriteRune(r)
		}
		afterLine = false
	}
	return b.String()
}

// literalText is the text under n as preformatted text shows it: a line
// break for each <br> and after each block, table cells apart by a tab.
func literalText(n *html.Node) string {
	switch {
	case n.Type == html.TextNode:
		return n.Data
	case n.Type != html.ElementNode:
		return ""
	case n.Data == "br":
		return "\n"
	case n.Data == "style" || n.Data == "script":
		// a component's styles, written beside its markup (Emotion's
		// <style> before each line number of Twilio's examples)
		return ""
	case n.Data == "textarea":
		// an editable example's input, laid over the highlighted lines
		// it repeats: the block's code came out twice, run together
		return ""
	}
	text := childrenText(n)
	switch {
	case n.Data == "td" || n.Data == "th":
		return text + "\t"
	case n.Data == "tr":
		return strings.TrimRight(text, "\t") + "\n"
	case blockTags[n.Data] && text != "" && !strings.HasSuffix(text, "\n"):
		return text + "\n"
	case isCodeLine(n) && isCodeLine(nextElement(n)) && !strings.HasSuffix(text, "\n") && !strings.HasPrefix(textBetween(n), "\n"):
		// Shiki's lines, which a stylesheet sets one under another
		// without a line break between them
		return text + "\n"
	}
	return text
}

// isCodeLine reports whether n is a highlighter's line of code: a <span
// class="line">.
func isCodeLine(n *html.Node) bool {
	return n != nil && n.Type == html.ElementNode && n.Data == "span" && containsString(strings.Fields(attr(n, "class")), "line")
}

// nextElement is the element after n among its siblings, or nil.
func nextElement(n *html.Node) *html.Node {
	for c := n.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

// textBetween is the text between n and the element after it.
func textBetween(n *html.Node) string {
	var b strings.Builder
	for c := n.NextSibling; c != nil && c.Type != html.ElementNode; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// isInlineElement reports whether n is an element (not text) that runs on
// with what is beside it.
func isInlineElement(n *html.Node) bool {
	return n != nil && n.Type == html.ElementNode && isInline(n)
}

// childrenText is the literal text of n's children.
func childrenText(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(literalText(c))
	}
	return b.String()
}

// restoreCodeBlocks turns go-trafilatura's <code> blocks back into <pre>:
// it rewrites <pre><code> as <code><code>, keeping the line breaks, and the
// markdown converter would render that as one inline code span.
func restoreCodeBlocks(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		// go-trafilatura builds elements by name, without atoms.
		if c.Data == "pre" {
			continue
		}
		// Links inside a page's code are never marked (markLinks), so a
		// <code> whose text holds a link's mark is prose go-trafilatura
		// took for code (nginx's notes, a <blockquote> of a sentence with
		// a code span and a link): as a block, its link's markdown came
		// out as it is, the address as words.
		if text := textOf(c); c.Data == "code" && strings.Contains(text, "\n") && !strings.ContainsRune(text, linkOpen) {
			c.Data, c.DataAtom = "pre", atom.Pre
			continue
		}
		restoreCodeBlocks(c)
	}
}

// separateTopLevel wraps in a paragraph of its own each inline element
// that stands beside another at the top of go-trafilatura's content. Each
// element there is a block in go-trafilatura's model (its text puts them
// on lines of their own), but rendered as HTML they ran together: a
// reference page's heading "<code>LIMIT</code> and <code>OFFSET</code>",
// whose heading and " and " go-trafilatura lost, came out as one code
// span, "`LIMITOFFSET`".
func separateTopLevel(content *html.Node) {
	if content == nil {
		return
	}
	afterInline := false
	for c := content.FirstChild; c != nil; {
		next := c.NextSibling
		inline := isInlineElement(c)
		if inline && (afterInline || isInlineElement(next)) {
			p := element(atom.P)
			content.InsertBefore(p, c)
			content.RemoveChild(c)
			p.AppendChild(c)
		}
		afterInline = inline
		c = next
	}
}

func textOf(n *html.Node) string {
	text, _ := textUpTo(n, math.MaxInt)
	return text
}

// textUpTo returns the text under n, and false when it passes limit bytes
// (the text then stops there): a rule that keys each of a page's elements
// by its text reads a deep nest's text once per level, and bounds what it
// reads.
func textUpTo(n *html.Node, limit int) (string, bool) {
	var b strings.Builder
	var walk func(*html.Node) bool
	walk = func(n *html.Node) bool {
		if n.Type == html.TextNode {
			if b.Len()+len(n.Data) > limit {
				return false
			}
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	whole := walk(n)
	return b.String(), whole
}

// hasText reports whether n holds a character other than a blank, read
// up to the first.
func hasText(n *html.Node) bool {
	if n.Type == html.TextNode {
		return strings.IndexFunc(n.Data, func(r rune) bool { return !isBlank(r) }) >= 0
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if hasText(c) {
			return true
		}
	}
	return false
}
