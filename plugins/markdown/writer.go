package markdown

import (
	"strings"

	"github.com/siftd/sift/plugins/sdk"
)

// Writer writes blocks of markdown up to a cap: past it, it keeps the
// part of the block that fits and writes nothing more, and Full says so,
// so a reader can stop reading the document there.
type Writer struct {
	b    strings.Builder
	max  int64
	full bool
	// list is true while the last block was a list item, which the next
	// item follows without a blank line.
	list bool
	// markers are the widths of the open list items' markers by depth.
	markers []int
}

// NewWriter returns a writer that holds at most max bytes (0 or less: no
// cap).
func NewWriter(max int64) *Writer { return &Writer{max: max} }

// Full reports whether the writer reached its cap.
func (w *Writer) Full() bool { return w.full }

// Len is the number of bytes written.
func (w *Writer) Len() int { return w.b.Len() }

// String returns the markdown written, ending in one newline when there
// is any.
func (w *Writer) String() string {
	s := strings.TrimRight(w.b.String(), "\n")
	if s == "" {
		return ""
	}
	if w.max > 0 && int64(len(s)) >= w.max {
		return s // full: no byte past the cap
	}
	return s + "\n"
}

// block starts a block: a blank line after the one before, or a single
// newline between list items.
func (w *Writer) block(item bool) {
	if w.b.Len() > 0 {
		if item && w.list {
			w.write("\n")
		} else {
			w.write("\n\n")
		}
	}
	w.list = item
}

// write appends s, or the part of it that fits under the cap.
func (w *Writer) write(s string) {
	if w.full {
		return
	}
	if w.max > 0 && int64(w.b.Len()+len(s)) > w.max {
		if left := w.max - int64(w.b.Len()); left > 0 {
			cut, _ := sdk.Truncate(s, left)
			w.b.WriteString(cut)
		}
		w.full = true
		return
	}
	w.b.WriteString(s)
}

// Heading writes a heading of level 1 to 6 (deeper levels are 6); text is
// inline markdown on one line.
func (w *Writer) Heading(level int, text string) {
	text = oneLine(text)
	if text == "" {
		return
	}
	level = min(max(level, 1), 6)
	w.block(false)
	w.write(strings.Repeat("#", level) + " " + text)
}

// Paragraph writes a paragraph of inline markdown, each of its lines kept
// from starting another kind of block.
func (w *Writer) Paragraph(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	w.block(false)
	w.write(escapeLines(text))
}

// ListItem writes one item of a list nested depth levels deep (0 at the
// top), its marker "-" or "1." (any number); items in a row form one
// list. An item's content, and the items nested in it, start past its
// marker, as CommonMark reads them.
func (w *Writer) ListItem(depth int, marker string, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	depth = min(max(depth, 0), 8)
	if !w.list {
		w.markers = w.markers[:0]
	}
	for len(w.markers) < depth {
		w.markers = append(w.markers, 2) // a level skipped: as a bullet's
	}
	w.markers = append(w.markers[:depth], len(marker)+1)
	indent := 0
	for _, m := range w.markers[:depth] {
		indent += m
	}
	w.block(true)
	pad := strings.Repeat(" ", indent)
	cont := pad + strings.Repeat(" ", len(marker)+1)
	lines := strings.Split(escapeLines(text), "\n")
	w.write(pad + marker + " " + lines[0])
	for _, l := range lines[1:] {
		w.write("\n" + cont + l)
	}
}

// EndList ends the list being written, so that a list item written next
// starts another list, a blank line apart.
func (w *Writer) EndList() { w.list = false }

// Quote writes a block quote of inline markdown.
func (w *Writer) Quote(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	w.block(false)
	lines := strings.Split(escapeLines(text), "\n")
	for i, l := range lines {
		if i > 0 {
			w.write("\n")
		}
		w.write("> " + l)
	}
}

// Code writes a fenced code block in language lang ("" for none); text is
// taken literally.
func (w *Writer) Code(lang, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	w.block(false)
	w.write(fence + oneLine(lang) + "\n" + strings.TrimRight(text, "\n") + "\n" + fence)
}

// Block writes markdown made by another writer as it is: blocks a reader
// gathered before it could write what goes ahead of them.
func (w *Writer) Block(md string) {
	if md = strings.Trim(md, "\n"); md == "" {
		return
	}
	w.block(false)
	w.write(md)
}

// Rule writes a thematic break.
func (w *Writer) Rule() {
	w.block(false)
	w.write("---")
}

// Table writes rows of rendered cells (Inline.Cell) as a markdown table,
// the first row its header; rows shorter than the longest are padded.
func (w *Writer) Table(rows [][]string) {
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	if width == 0 {
		return
	}
	w.block(false)
	for i, r := range rows {
		if i > 0 {
			w.write("\n")
		}
		w.write(tableRow(r, width))
		if i == 0 {
			w.write("\n|" + strings.Repeat(" --- |", width))
		}
		if w.full {
			return
		}
	}
}

func tableRow(cells []string, width int) string {
	var b strings.Builder
	b.WriteString("|")
	for i := range width {
		c := ""
		if i < len(cells) {
			c = cells[i]
		}
		b.WriteString(" ")
		b.WriteString(c)
		b.WriteString(" |")
	}
	return b.String()
}

// oneLine joins text's lines with spaces.
func oneLine(text string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(text, "  \n", " ")), " ")
}

// escapeLines escapes each line's start (EscapeLineStart).
func escapeLines(text string) string {
	if !strings.Contains(text, "\n") {
		return EscapeLineStart(text)
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = EscapeLineStart(l)
	}
	return strings.Join(lines, "\n")
}
