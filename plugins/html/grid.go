package html

import (
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A table's cells stay in their columns. go-trafilatura keeps no
// attribute, so a cell spanning two columns or rows came out as one, and
// every cell after it moved a column left ("| 11 | 13 | |"). layOutTables
// writes each span as the empty cells it covers, before go-trafilatura
// reads the page, and drops the span: a row then holds a cell for each
// column. A small table inside a cell (a product's weight and colour) is
// written into its cell as text ("Weight: 2 kg; Colour: red"), which
// go-trafilatura dropped, and a table that only lays the page out (role
// presentation, or one cell) gives way to its content.

// cellFill is the text of the cells a span covers: go-trafilatura drops
// an empty cell, which moved the rest of its row; stripCellFill takes it
// out again.
const cellFill = '\uE009'

const (
	maxColSpan = 100
	maxRowSpan = 1000
	// maxSpanCells bounds the cells a page's spans may add: a hostile
	// page of colspan=1000 rowspan=65534 would otherwise add millions.
	maxSpanCells = 50_000
	// maxNestedCells is the size of a table inside a cell that is written
	// into its cell as text.
	maxNestedCells = 24
)

// layOutTables lays out every table under root (see above), innermost
// first: spans as cells, and a small table in a data table's cell as its
// text.
func layOutTables(root *html.Node) {
	budget := maxSpanCells
	for _, t := range tablesInnermostFirst(root) {
		switch outer := outerTable(t); {
		case t.Parent == nil:
		case outer != nil && hasHeaders(outer) && flatTable(t):
			flattenNestedTable(t)
		default:
			layOutSpans(t, &budget)
		}
	}
}

// unwrapLayoutTables replaces each table under n that only lays its
// content out (isLayoutTable) by that content. It runs on the content,
// after go-trafilatura: before, unwrapped callouts were lost.
func unwrapLayoutTables(n *html.Node) {
	for _, t := range tablesInnermostFirst(n) {
		if t.Parent != nil && isLayoutTable(t) {
			unwrapLayoutTable(t)
		}
	}
}

// tablesInnermostFirst lists the tables under root, each after the tables
// inside it.
func tablesInnermostFirst(root *html.Node) []*html.Node {
	return innermostFirst(root, "table")
}

// innermostFirst lists the elements under root of the given names, each
// after those inside it, so that rewriting one leaves the ones already
// rewritten in place; nothing inside a script, style, template or
// textarea is one. Elements are known by name, as in go-trafilatura's
// tree.
func innermostFirst(root *html.Node, names ...string) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.Data {
			case "script", "style", "template", "textarea":
				continue
			}
			walk(c)
			if slices.Contains(names, c.Data) {
				out = append(out, c)
			}
		}
	}
	walk(root)
	return out
}

// rowsOf are the rows of table t, in order, not those of tables inside
// it. Elements are known by name: go-trafilatura builds its own without
// atoms.
func rowsOf(t *html.Node) []*html.Node {
	var rows []*html.Node
	for c := t.FirstChild; c != nil; c = c.NextSibling {
		switch c.Data {
		case "tr":
			rows = append(rows, c)
		case "thead", "tbody", "tfoot":
			for r := c.FirstChild; r != nil; r = r.NextSibling {
				if r.Data == "tr" {
					rows = append(rows, r)
				}
			}
		}
	}
	return rows
}

// cellsOf are the cells of row r.
func cellsOf(r *html.Node) []*html.Node {
	var cells []*html.Node
	for c := r.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
			cells = append(cells, c)
		}
	}
	return cells
}

// span reads a cell's colspan or rowspan: 1 when absent or unreadable, at
// most max; 0 stays 0 (a rowspan to the end of the table).
func span(c *html.Node, key string, max int) int {
	v := strings.TrimSpace(attr(c, key))
	if v == "" {
		return 1
	}
	// Browsers read the leading digits ("2px" is 2).
	end := 0
	for end < len(v) && v[end] >= '0' && v[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(v[:end])
	switch {
	case err != nil:
		return 1
	case n > max:
		return max
	case n == 0 && key == "rowspan":
		return 0
	case n < 1:
		return 1
	}
	return n
}

// layOutSpans writes the spans of table t's cells as empty cells, while
// budget lasts; a table it cannot lay out whole is left as it is.
func layOutSpans(t *html.Node, budget *int) {
	rows := rowsOf(t)
	if !hasSpans(rows) {
		return
	}
	pending := map[int]pendingCell{} // column: the rowspan still covering it
	var added []*html.Node
	for i, r := range rows {
		col := 0
		fill := func(before *html.Node) {
			for p, ok := pending[col]; ok; p, ok = pending[col] {
				added = append(added, insertCell(r, before, p.tag))
				if p.rows--; p.rows == 0 {
					delete(pending, col)
				} else {
					pending[col] = p
				}
				col++
			}
		}
		for _, c := range cellsOf(r) {
			fill(c)
			cols, down := span(c, "colspan", maxColSpan), span(c, "rowspan", maxRowSpan)
			if down == 0 || down > len(rows)-i {
				down = len(rows) - i
			}
			c.Attr = withoutAttr(withoutAttr(c.Attr, "colspan"), "rowspan")
			for k := 0; k < cols; k++ {
				if k > 0 {
					added = append(added, insertCell(r, c.NextSibling, c.Data))
					c = c.NextSibling
				}
				if down > 1 {
					pending[col] = pendingCell{rows: down - 1, tag: c.Data}
				}
				col++
			}
			if len(added) > *budget {
				break
			}
		}
		for len(pending) > 0 && col <= maxPendingColumn(pending) && len(added) <= *budget {
			if _, ok := pending[col]; ok {
				fill(nil)
			} else {
				added = append(added, insertCell(r, nil, "td"))
				col++
			}
		}
		if len(added) > *budget {
			for _, a := range added {
				a.Parent.RemoveChild(a)
			}
			return
		}
	}
	*budget -= len(added)
}

type pendingCell struct {
	rows int
	tag  string
}

func maxPendingColumn(pending map[int]pendingCell) int {
	m := -1
	for col := range pending {
		m = max(m, col)
	}
	return m
}

func hasSpans(rows []*html.Node) bool {
	for _, r := range rows {
		for _, c := range cellsOf(r) {
			if hasAttr(c, "colspan") || hasAttr(c, "rowspan") {
				return true
			}
		}
	}
	return false
}

// insertCell puts an empty cell named tag into row r before before (at
// the end when nil) and returns it.
func insertCell(r, before *html.Node, tag string) *html.Node {
	a := atom.Td
	if tag == "th" {
		a = atom.Th
	}
	cell := &html.Node{Type: html.ElementNode, Data: a.String(), DataAtom: a}
	cell.AppendChild(&html.Node{Type: html.TextNode, Data: string(cellFill)})
	r.InsertBefore(cell, before)
	return cell
}

// stripCellFill writes the text of the cells spans cover as with, a
// space in markdown (where the table's columns were padded to it) and
// nothing in HTML.
func stripCellFill(s, with string) string {
	if !strings.ContainsRune(s, cellFill) {
		return s
	}
	return strings.ReplaceAll(s, string(cellFill), with)
}

// isLayoutTable reports whether t only lays its content out: it says so
// (role presentation or none, which go-trafilatura's copy no longer
// holds), or it is one cell.
func isLayoutTable(t *html.Node) bool {
	switch roleOf(t) {
	case "presentation", "none":
		return true
	}
	rows := rowsOf(t)
	return len(rows) == 1 && len(cellsOf(rows[0])) == 1
}

// unwrapLayoutTable replaces t by its cells' content, each cell a <div>,
// or a paragraph when it holds no block.
func unwrapLayoutTable(t *html.Node) {
	for _, r := range rowsOf(t) {
		for _, c := range cellsOf(r) {
			div := element(atom.Div)
			if !hasBlock(c) {
				div = element(atom.P)
			}
			for k := c.FirstChild; k != nil; k = c.FirstChild {
				c.RemoveChild(k)
				div.AppendChild(k)
			}
			t.Parent.InsertBefore(div, t)
		}
	}
	t.Parent.RemoveChild(t)
}

// outerTable is the table whose cell n is in, if it is in one.
func outerTable(n *html.Node) *html.Node {
	inCell := false
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.Data {
		case "td", "th":
			inCell = true
		case "table":
			if inCell {
				return p
			}
			return nil
		}
	}
	return nil
}

// hasHeaders reports whether table t heads its columns or rows (<th>,
// <thead>): a data table, where a layout table does not. A small table in
// a layout table's cell is the page's, and written as text it drew
// go-trafilatura elsewhere.
func hasHeaders(t *html.Node) bool {
	for c := t.FirstChild; c != nil; c = c.NextSibling {
		if c.Data == "thead" {
			return true
		}
	}
	for _, r := range rowsOf(t) {
		for _, c := range cellsOf(r) {
			if c.Data == "th" {
				return true
			}
		}
	}
	return false
}

// flatTable reports whether t is small and its cells hold text alone.
func flatTable(t *html.Node) bool {
	cells := 0
	for _, r := range rowsOf(t) {
		for _, c := range cellsOf(r) {
			if cells++; cells > maxNestedCells || hasBlock(c) {
				return false
			}
		}
	}
	return cells > 0
}

// hasBlock reports whether a block element is under n.
func hasBlock(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (blockTags[c.Data] || hasBlock(c)) {
			return true
		}
	}
	return false
}

// flattenNestedTable writes t into its place as text: a row's cells
// joined by ": " when there are two, else ", ", and rows by "; ". Its
// elements (links, emphasis) stay.
func flattenNestedTable(t *html.Node) {
	out := element(atom.Span)
	first := true
	for _, r := range rowsOf(t) {
		cells := cellsOf(r)
		var kept []*html.Node
		for _, c := range cells {
			if strings.TrimFunc(textOf(c), isBlank) != "" {
				kept = append(kept, c)
			}
		}
		if len(kept) == 0 {
			continue
		}
		if !first {
			out.AppendChild(&html.Node{Type: html.TextNode, Data: "; "})
		}
		first = false
		sep := ", "
		if len(kept) == 2 {
			sep = ": "
		}
		for i, c := range kept {
			if i > 0 {
				out.AppendChild(&html.Node{Type: html.TextNode, Data: sep})
			}
			for k := c.FirstChild; k != nil; k = c.FirstChild {
				c.RemoveChild(k)
				out.AppendChild(k)
			}
		}
	}
	t.Parent.InsertBefore(out, t)
	t.Parent.RemoveChild(t)
}
