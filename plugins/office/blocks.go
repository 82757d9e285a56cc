package office

import (
	"strconv"
	"strings"

	"github.com/siftd/sift/plugins/markdown"
)

// blocks turns a document's paragraphs, as its reader classifies them,
// into markdown blocks: consecutive code paragraphs become one fenced
// block, list items are numbered per list and level, and every block
// goes to one capped writer.
type blocks struct {
	w    *markdown.Writer
	code []string
	// counters are the next numbers of each ordered list, by list and
	// level.
	counters map[string][]int
	// last is the list of the last item written at the top level.
	last string
}

func newBlocks(w *markdown.Writer) *blocks {
	return &blocks{w: w, counters: map[string][]int{}}
}

func (b *blocks) heading(level int, in *markdown.Inline) {
	b.flushCode()
	b.w.Heading(level, in.String())
}

func (b *blocks) para(in *markdown.Inline) {
	b.flushCode()
	b.w.Paragraph(in.String())
}

func (b *blocks) quote(in *markdown.Inline) {
	b.flushCode()
	b.w.Quote(in.String())
}

// codeLine adds a paragraph of code; its line breaks are its own.
func (b *blocks) codeLine(in *markdown.Inline) {
	b.code = append(b.code, strings.ReplaceAll(rawText(in), "\u00a0", " "))
}

// item writes a list item of list (an id of the document's own) at depth,
// numbered when ordered.
func (b *blocks) item(list string, depth int, ordered bool, in *markdown.Inline) {
	b.flushCode()
	depth = min(max(depth, 0), 8)
	if depth == 0 {
		if list != b.last {
			b.w.EndList()
		}
		b.last = list
	}
	marker := "-"
	if ordered {
		c := b.counters[list]
		for len(c) <= depth {
			c = append(c, 1)
		}
		marker = strconv.Itoa(c[depth]) + "."
		c[depth]++
		// A new item at this level restarts the levels below it.
		for i := depth + 1; i < len(c); i++ {
			c[i] = 1
		}
		b.counters[list] = c
	}
	b.w.ListItem(depth, marker, in.String())
}

func (b *blocks) table(rows [][]string) {
	b.flushCode()
	b.w.Table(rows)
}

func (b *blocks) flushCode() {
	if len(b.code) == 0 {
		return
	}
	b.w.Code("", strings.Join(b.code, "\n"))
	b.code = b.code[:0]
}

// rawText is a paragraph's text exactly, for code: no escaping, breaks as
// newlines.
func rawText(in *markdown.Inline) string { return in.Raw() }
