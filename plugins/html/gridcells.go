package html

import (
	"bytes"
	"regexp"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A GitHub-flavoured markdown table holds one line a cell, but a cell may
// hold <br>. A table with a line break in a cell ("line<br>two", a cell's
// paragraphs, a list) came out as loose text, its rows and columns lost;
// now the table plugin writes such a cell's line breaks as <br />
// (WithNewlineBehavior), and a list in it, which a markdown table cannot
// hold and go-trafilatura drops from a cell, is its items on one line,
// each led by "• " (an ordered list's too: the converter escapes a
// number's "1." at a line's start, and the order stays). Only a grid of
// short cells (gridTable) is written so: a table that lays a page out
// holds whole posts, articles and menus in its cells, which as rows of
// <br>s would read worse than the loose text they were.

const (
	// maxGridCellWords and maxGridCellLines bound a cell of a grid.
	maxGridCellWords = 40
	maxGridCellLines = 8
)

// gridTable reports whether table t is a grid of short cells, each of at
// most maxGridCellWords words on at most maxGridCellLines lines, with no
// block a markdown table cannot hold (a code block, heading, quote, rule
// or table), in two columns or more, and t lays nothing out
// (isLayoutTable). A table of one column is a stack of blocks (a
// sidebar's boxes), which loose text shows as well.
func gridTable(t *html.Node) bool {
	rows := rowsOf(t)
	if len(rows) == 0 || isLayoutTable(t) {
		return false
	}
	columns := 0
	for _, r := range rows {
		cells := cellsOf(r)
		columns = max(columns, len(cells))
		for _, c := range cells {
			if !gridCell(c) {
				return false
			}
		}
	}
	return columns >= 2
}

// gridCell reports whether cell c is short enough for a grid (gridTable).
func gridCell(c *html.Node) bool {
	if words(c) > maxGridCellWords {
		return false
	}
	lines, ok := 1, true
	walkElements(c, func(n *html.Node) bool {
		// go-trafilatura's copy has no atoms: names are compared.
		switch n.Data {
		case "pre", "table", "blockquote", "hr", "h1", "h2", "h3", "h4", "h5", "h6":
			ok = false
		case "br", "p", "div", "li":
			lines++
		}
		return ok
	})
	return ok && lines <= maxGridCellLines
}

// listCellItems writes each list in a cell of a grid under root as its
// items on one line, each led by "• ": a markdown table cell holds no
// list.
func listCellItems(root *html.Node) {
	for _, t := range tablesInnermostFirst(root) {
		if t.Parent == nil || !gridTable(t) {
			continue
		}
		for _, r := range rowsOf(t) {
			for _, c := range cellsOf(r) {
				for _, l := range innermostFirst(c, "ul", "ol") {
					listAsItems(l)
				}
			}
		}
	}
}

// listAsItems replaces list l by a <span> of its items, each led by "• ".
func listAsItems(l *html.Node) {
	span := element(atom.Span)
	n := 0
	for li := l.FirstChild; li != nil; li = li.NextSibling {
		if li.Type != html.ElementNode || li.DataAtom != atom.Li {
			continue
		}
		lead := "• "
		if n++; n > 1 {
			lead = " • "
		}
		span.AppendChild(&html.Node{Type: html.TextNode, Data: lead})
		for k := li.FirstChild; k != nil; k = li.FirstChild {
			li.RemoveChild(k)
			span.AppendChild(k)
		}
	}
	l.Parent.InsertBefore(span, l)
	l.Parent.RemoveChild(l)
}

// renderLooseTable renders a table that is no grid (gridTable) and has a
// cell of several lines as its rows' text, as the table plugin did before
// it wrote line breaks as <br />: rows of <br>s would read worse. A table
// whose cells are each one line stays the table plugin's.
func renderLooseTable(ctx htmltomarkdown.Context, w htmltomarkdown.Writer, n *html.Node) htmltomarkdown.RenderStatus {
	if n.Data != "table" || gridTable(n) || !hasMultiLineCell(ctx, n) {
		return htmltomarkdown.RenderTryNext
	}
	w.WriteString("\n\n")
	ctx.RenderChildNodes(ctx, w, n)
	w.WriteString("\n\n")
	return htmltomarkdown.RenderSuccess
}

// hasMultiLineCell reports whether a cell of table t renders as more than
// one line, as the table plugin tells.
func hasMultiLineCell(ctx htmltomarkdown.Context, t *html.Node) bool {
	for _, r := range rowsOf(t) {
		for _, c := range cellsOf(r) {
			var buf bytes.Buffer
			ctx.RenderNodes(ctx, &buf, c)
			if bytes.Contains(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
				return true
			}
		}
	}
	return false
}

// cellBreaks matches the line breaks the table plugin writes for a cell's
// line: one <br /> says as much as a paragraph break there, and the blanks
// of a hard line break ("  \n") before it are none of the text. edgeBreaks
// matches those at a cell's edge, which break nothing.
var (
	cellBreaks = regexp.MustCompile(`(?:[ \t]*<br />[ \t]*)+`)
	edgeBreaks = regexp.MustCompile(`\|(?: *<br /> *)+|(?: *<br /> *)+\|`)
)

// oneBreakPerLine writes each run of line breaks in md's table rows as one
// <br />, and drops those at a cell's edge.
func oneBreakPerLine(md string) string {
	if !strings.Contains(md, "<br />") {
		return md
	}
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "|") {
			l = cellBreaks.ReplaceAllString(l, "<br />")
			lines[i] = edgeBreaks.ReplaceAllStringFunc(l, func(m string) string {
				if strings.HasPrefix(m, "|") {
					return "| "
				}
				return " |"
			})
		}
	}
	return strings.Join(lines, "\n")
}
