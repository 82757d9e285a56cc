package csv

import (
	"bytes"
	"context"
	stdcsv "encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/siftd/sift/plugins/sdk"
)

// table is what a document's rows became, and what was cut on the way.
type table struct {
	rows  [][]string // the header first; cells escaped and capped
	width int        // the widest row rendered
	total int        // rows in the document, read to the end or the break
	size  int64      // bytes the rendered rows take, roughly

	cutCells, cutColumns, ragged int
	cutAt                        int    // the first row left out for the caps, 0 when none
	cutWhy                       string // which cap
	broken                       string // where and why the document breaks, "" when it does not
}

// read parses text with encoding/csv (strict quotes, any number of fields
// a row) and keeps the rows that fit maxOut. It reads on past the cut only
// to count the rows, so a warning can say how many were left out.
func read(ctx context.Context, text []byte, comma rune, maxOut int64) (*table, error) {
	var src io.Reader = bytes.NewReader(text)
	if comma < utf8.RuneSelf {
		src = &cellLimiter{src: text, comma: byte(comma), limit: MaxCell + utf8.UTFMax}
	}
	r := stdcsv.NewReader(src)
	r.Comma, r.FieldsPerRecord, r.ReuseRecord = comma, -1, true
	t := &table{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *stdcsv.ParseError
			if !errors.As(err, &pe) {
				return nil, fmt.Errorf("read CSV: %w", err)
			}
			if t.total == 0 {
				return nil, sdk.Invalid("malformed CSV at %s: %v", position(pe.Line, pe.Column), pe.Err)
			}
			t.broken = fmt.Sprintf("malformed CSV at %s (%v)", position(pe.Line, pe.Column), pe.Err)
			break
		}
		t.total++
		if t.total%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if t.cutAt == 0 {
			t.add(rec, maxOut)
		}
	}
	t.pad()
	return t, nil
}

// add keeps one record, or marks the cut when it would not fit: the rows
// kept, with the header's rule, stay within maxOut.
func (t *table) add(rec []string, maxOut int64) {
	if len(t.rows) > MaxRows {
		t.cutAt, t.cutWhy = t.total, fmt.Sprintf("the table is capped at %d rows", MaxRows)
		return
	}
	if len(rec) > MaxColumns {
		t.cutColumns++
		rec = rec[:MaxColumns]
	}
	row := make([]string, len(rec))
	size := int64(2)
	for i, cell := range rec {
		row[i] = t.cell(cell)
		size += int64(len(row[i]) + 3)
	}
	rule := int64(2 + 6*max(t.width, len(row)))
	if len(t.rows) > 0 && t.size+size+rule > maxOut {
		t.cutAt, t.cutWhy = t.total, fmt.Sprintf("the rest does not fit the output cap of %d bytes", maxOut)
		return
	}
	t.size += size
	t.rows = append(t.rows, row)
	t.width = max(t.width, len(row))
}

// cell trims, caps and escapes one cell for a markdown table.
func (t *table) cell(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > MaxCell {
		t.cutCells++
		s, _ = sdk.Truncate(s, MaxCell)
		// A copy, so the kept cell does not hold the whole record.
		s = strings.Clone(s) + "…"
	}
	return escape(s)
}

// escape makes a cell safe inside a table row: a pipe would end the cell
// (and a backslash before one would undo its escape), and a line break
// the row.
var escaper = strings.NewReplacer(`\|`, `\\\|`, "|", `\|`, "\r\n", "<br>", "\n", "<br>", "\r", "<br>")

func escape(s string) string { return escaper.Replace(s) }

// pad gives every row the table's width, counting the rows whose fields
// are not as many as the header's.
func (t *table) pad() {
	if len(t.rows) == 0 {
		return
	}
	header := len(t.rows[0])
	for i, row := range t.rows {
		if i > 0 && len(row) != header {
			t.ragged++
		}
		if len(row) < t.width {
			t.rows[i] = append(row, make([]string, t.width-len(row))...)
		}
	}
}

// markdown renders the table, its first row as the header.
func (t *table) markdown() string {
	if len(t.rows) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(int(t.size) + 8*t.width)
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" ")
			b.WriteString(c)
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	line(t.rows[0])
	line(sliceOf("---", t.width))
	for _, row := range t.rows[1:] {
		line(row)
	}
	return b.String()
}

func sliceOf(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// warnings name every cut, with its numbers.
func (t *table) warnings() []string {
	var w []string
	if t.broken != "" {
		w = append(w, fmt.Sprintf("%s: the table holds the %d rows before it", t.broken, t.total))
	}
	if t.cutAt > 0 {
		w = append(w, fmt.Sprintf("table cut at row %d of %d (the header is row 1): %s", t.cutAt, t.total, t.cutWhy))
	}
	if t.cutColumns > 0 {
		w = append(w, fmt.Sprintf("%d rows had more than %d fields: the rest of each was left out", t.cutColumns, MaxColumns))
	}
	if t.cutCells > 0 {
		w = append(w, fmt.Sprintf("%d cells longer than %d bytes were cut", t.cutCells, MaxCell))
	}
	if t.ragged > 0 {
		w = append(w, fmt.Sprintf("%d rows had another number of fields than the header: padded with empty cells", t.ragged))
	}
	if t.total == 0 {
		w = append(w, "the document holds no rows")
	}
	return w
}
