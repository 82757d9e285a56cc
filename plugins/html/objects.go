package html

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/siftd/sift/plugins/sdk"
)

// Formulas and images are markup go-trafilatura does not keep: it removes
// <math>, <figure> and <picture>, and strips <img>. And what they render
// as (a formula's LaTeX, an image's ![alt](url)) would be escaped by the
// markdown converter. So each is replaced, before go-trafilatura reads the
// page, by a marked text: a private-use opening mark carrying its number,
// a text that weighs in go-trafilatura's choice as the object does on the
// page (a formula's source; nothing for an image), and a closing mark.
// After the markdown is made, each marked text becomes what the object
// renders as (objectMarkdown); marks a cut left alone are dropped.

const (
	objectOpen  = '\uE005'
	objectClose = '\uE006'
	// objectBase numbers objects in Supplementary Private Use Area-B.
	objectBase = 0x100000
	maxObjects = 0xFFFD
)

// objects are a page's marked objects: what each renders as, in markdown
// and in HTML, by number; and what the request asks of them.
type objects struct {
	markdown []string
	html     []string
	// images asks for the page's images (images.go), resolved against
	// base.
	images bool
	base   *url.URL
	// base64Images keeps the images inlined as data: URIs
	// (OptionBase64Images); inlineTooLarge counts those left out for
	// their size.
	base64Images   bool
	inlineTooLarge int
	// formulasTooLarge counts the formulas left out for their size
	// (countFormulasTooLarge).
	formulasTooLarge int
	// inCells is markdown as written in a table's cells (cellMarkdown).
	inCells []string
}

// newObjects holds the objects of a page whose URLs resolve against
// docBase (documentBase).
func newObjects(docBase string, images bool) *objects {
	o := &objects{images: images}
	if u, err := url.Parse(docBase); err == nil && u.IsAbs() {
		o.base = u
	}
	return o
}

// mark replaces n by a marked text holding weight that renders as md in
// markdown and as h in HTML, and returns the text node. Past maxObjects,
// or with nothing to render, n is replaced by weight alone.
func (o *objects) mark(n *html.Node, weight, md, h string) *html.Node {
	weight = stripObjectMarks(weight)
	text := weight
	if md != "" && len(o.markdown) < maxObjects {
		text = string(objectOpen) + string(rune(objectBase+len(o.markdown))) + weight + string(objectClose)
		o.markdown = append(o.markdown, md)
		o.html = append(o.html, h)
	}
	t := &html.Node{Type: html.TextNode, Data: text}
	if n.Parent != nil {
		n.Parent.InsertBefore(t, n)
		n.Parent.RemoveChild(n)
	}
	return t
}

// markedObject matches a marked object; its weight may hold escapes and,
// in HTML, tags, but no line break in markdown.
var (
	markedObject     = regexp.MustCompile("\uE005([\U00100000-\U0010FFFD])[^\uE005\uE006\n]*\uE006")
	markedHTMLObject = regexp.MustCompile("\uE005([\U00100000-\U0010FFFD])[^\uE005\uE006]*\uE006")
)

// objectMarkdown writes each marked object of md as what it renders as,
// and drops marks left over.
func (o *objects) objectMarkdown(md string) string {
	if o == nil || len(o.markdown) == 0 || !strings.ContainsRune(md, objectOpen) {
		return stripObjectMarks(md)
	}
	lines := strings.SplitAfter(md, "\n")
	for i, line := range lines {
		if !strings.ContainsRune(line, objectOpen) {
			continue
		}
		if isTableRow(line) {
			lines[i] = o.replace(line, markedObject, o.cellMarkdown())
		} else {
			lines[i] = o.replace(line, markedObject, o.markdown)
		}
	}
	return stripObjectMarks(strings.Join(lines, ""))
}

// isTableRow reports whether line is a row of a markdown table, in a
// quote or list item or not.
func isTableRow(line string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t>"), "|")
}

// escapeCodeSpanPipes escapes the pipes inside the code spans of a
// markdown table's rows. The converter escapes a cell's text ("x\|y") but
// not its code ("`p|q`"), and a GFM table splits its rows at every
// unescaped pipe before it reads the spans; escaped, the pipe shows in
// the code as it is.
func escapeCodeSpanPipes(md string) string {
	if !strings.Contains(md, "`") {
		return md
	}
	return editOutsideFences(md, func(line string) string {
		if !isTableRow(line) || !strings.Contains(line, "`") {
			return line
		}
		var b strings.Builder
		open := "" // the backticks that opened the span the line is in
		for i := 0; i < len(line); {
			if line[i] == '`' {
				run := len(line[i:]) - len(strings.TrimLeft(line[i:], "`"))
				switch tick := line[i : i+run]; {
				case open == "" && strings.Contains(line[i+run:], tick):
					open = tick
				case open == tick:
					open = ""
				}
				b.WriteString(line[i : i+run])
				i += run
				continue
			}
			if line[i] == '|' && open != "" && (i == 0 || line[i-1] != '\\') {
				b.WriteByte('\\')
			}
			b.WriteByte(line[i])
			i++
		}
		return b.String()
	})
}

// cellMarkdown is what the objects render as in a table's cell: a pipe
// of theirs (a formula's |x|, an image's alt) would end the cell, as the
// converter's own text escapes it, so it is escaped too. LaTeX's \| (a
// norm) becomes \Vert: escaped as \\|, the backslash would escape the
// backslash and the pipe end the cell all the same.
func (o *objects) cellMarkdown() []string {
	if len(o.inCells) != len(o.markdown) {
		o.inCells = make([]string, len(o.markdown))
		for i, md := range o.markdown {
			o.inCells[i] = cellPipes.Replace(md)
		}
	}
	return o.inCells
}

var cellPipes = strings.NewReplacer(`\|`, `\Vert `, `|`, `\|`)

// objectHTML is objectMarkdown for the content as HTML.
func (o *objects) objectHTML(s string) string {
	return stripObjectMarks(o.replace(s, markedHTMLObject, o.html))
}

func (o *objects) replace(s string, re *regexp.Regexp, shown []string) string {
	if o == nil || len(shown) == 0 || !strings.ContainsRune(s, objectOpen) {
		return s
	}
	return re.ReplaceAllStringFunc(s, func(m string) string {
		_, size := utf8.DecodeRuneInString(m)
		number, _ := utf8.DecodeRuneInString(m[size:])
		if idx := int(number) - objectBase; idx >= 0 && idx < len(shown) {
			return shown[idx]
		}
		return ""
	})
}

// stripObjectMarks removes object marks from s.
func stripObjectMarks(s string) string {
	if !strings.ContainsFunc(s, isObjectMark) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isObjectMark(r) {
			return -1
		}
		return r
	}, s)
}

func isObjectMark(r rune) bool {
	return r == objectOpen || r == objectClose || r >= objectBase && r <= objectBase+maxObjects
}

// warnInlineTooLarge tells of the inlined images, and the formulas, left
// out for their size.
func (o *objects) warnInlineTooLarge(out *sdk.ExtractResult) {
	if o.inlineTooLarge > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("%d base64 images over %d KiB each were left out (their alt text stays)", o.inlineTooLarge, maxInlineImage>>10))
	}
	if o.formulasTooLarge > 0 {
		what := fmt.Sprintf("%d formulas over %d KiB of LaTeX each were left out for their size", o.formulasTooLarge, maxFormulaBytes>>10)
		if o.formulasTooLarge == 1 {
			what = fmt.Sprintf("1 formula over %d KiB of LaTeX was left out for its size", maxFormulaBytes>>10)
		}
		out.Warnings = append(out.Warnings, what+" (at most the rendering's text stays)")
	}
}
