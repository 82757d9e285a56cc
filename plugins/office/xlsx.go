package office

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/siftd/sift/plugins/markdown"
	"github.com/siftd/sift/plugins/zipdoc"
)

// maxSheets bounds the sheets read of one workbook.
const maxSheets = 1_000

// maxSharedStrings bounds a workbook's shared string table, which is held
// whole since cells name its strings by index.
const maxSharedStrings = 2_000_000

// readXLSX writes each sheet of a workbook, in the workbook's order,
// under its name as a markdown table: shared and inline strings, numbers,
// booleans, dates as dates where the cell's format is one, formulas by
// their cached values, hyperlinks as links.
func readXLSX(r *reader) error {
	part, links, err := openMain(r, "xl/workbook.xml")
	if err != nil {
		return err
	}
	book, err := readWorkbook(r.zip, part, links)
	if err != nil {
		return err
	}
	if name, ok := links.first("sharedStrings"); ok {
		if book.strings, err = readSharedStrings(r.zip, name); err != nil {
			return err
		}
	}
	if name, ok := links.first("styles"); ok {
		if book.formats, err = readCellFormats(r.zip, name); err != nil {
			return err
		}
	}
	for i, sh := range book.sheets {
		if r.w.Full() || r.ctx.Err() != nil {
			break
		}
		if i == maxSheets {
			r.warnOnce("sheets", fmt.Sprintf("sheets cut at %d: the sheets after it are left out", maxSheets))
			break
		}
		r.where = fmt.Sprintf("sheet %q", sh.name)
		if err := writeSheet(r, book, sh); err != nil {
			return err
		}
	}
	return nil
}

// workbook is what the sheets' cells are read against.
type workbook struct {
	sheets  []sheetRef
	strings []string
	// formats are the cell formats by style index (a cell's s).
	formats  []cellFormat
	date1904 bool
}

type sheetRef struct {
	name, part string
}

func readWorkbook(a *zipdoc.Archive, part string, links rels) (*workbook, error) {
	rc, err := a.Open(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	book := &workbook{}
	seen := map[string]bool{}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return book, nil
		}
		if err != nil {
			return nil, zipdoc.XMLError(part, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "workbookPr":
			v := zipdoc.Attr(se, "date1904")
			book.date1904 = v == "1" || v == "true"
		case "sheet":
			if target, ok := links[zipdoc.AttrNS(se, nsRel, "id")]; ok && !target.external && a.Has(target.target) && !seen[target.target] {
				seen[target.target] = true // a sheet listed twice is read once
				book.sheets = append(book.sheets, sheetRef{name: zipdoc.Attr(se, "name"), part: target.target})
			}
		}
	}
}

// readSharedStrings reads the table of strings that cells of type "s"
// index: each item's text, its rich-text runs joined.
func readSharedStrings(a *zipdoc.Archive, name string) ([]string, error) {
	rc, err := a.Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	var out []string
	var cur strings.Builder
	var stack []string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, zipdoc.XMLError(name, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return nil, tooDeep(name)
			}
			stack = append(stack, t.Name.Local)
			switch t.Name.Local {
			case "si":
				cur.Reset()
			case "rPh":
				// Phonetic hints repeat the text in another script.
				if err := d.Skip(); err != nil {
					return nil, zipdoc.XMLError(name, err)
				}
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if len(stack) > 0 && stack[len(stack)-1] == "t" {
				cur.Write(t)
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if t.Name.Local == "si" {
				if len(out) >= maxSharedStrings {
					return out, nil
				}
				out = append(out, cur.String())
			}
		}
	}
}

// sheetCell is one cell as read: its column and text, and the link a
// hyperlink gives it.
type sheetCell struct {
	col  int
	text string
	link string
}

// sheetRow is one row's cells in column order.
type sheetRow struct {
	num   int
	cells []sheetCell
}

// writeSheet reads one worksheet's rows (up to max_rows) and writes them
// under the sheet's name.
func writeSheet(r *reader, book *workbook, sh sheetRef) error {
	r.w.Heading(2, escapedLine(sh.name))
	rows, hyperlinks, err := readSheetRows(r, book, sh)
	if err != nil {
		return err
	}
	if len(hyperlinks) > 0 {
		links, err := relsOf(r.zip, sh.part)
		if err != nil {
			return err
		}
		applyHyperlinks(r, rows, hyperlinks, links)
	}
	writeRows(r, rows)
	return nil
}

// readSheetRows streams a worksheet's sheetData; the rows are kept (up
// to max_rows, each up to max_columns) because the hyperlinks that come
// after them may name any cell.
func readSheetRows(r *reader, book *workbook, sh sheetRef) ([]sheetRow, map[string]string, error) {
	rc, err := r.zip.Open(sh.part)
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	var (
		rows       []sheetRow
		row        *sheetRow
		cell       sheetCell
		typ        string
		style      int
		value      strings.Builder
		inline     strings.Builder
		inCell     bool
		top        string
		nextCol    int
		hyperlinks = map[string]string{}
		size       int64
	)
	for {
		// RawToken: a sheet is most of a workbook's XML, and names are
		// matched by their local part only, so the namespace translation
		// Token does (a sixth of the time) buys nothing here.
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			return rows, hyperlinks, nil
		}
		if err != nil {
			return nil, nil, zipdoc.XMLError(sh.part, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			top = t.Name.Local
			switch t.Name.Local {
			case "row":
				if len(rows) >= r.cfg.MaxRows {
					r.cutRows(fmt.Sprintf("sheet %q", sh.name), len(rows))
					row = nil
					if err := skipRaw(d); err != nil {
						return nil, nil, zipdoc.XMLError(sh.part, err)
					}
					continue
				}
				n, _ := strconv.Atoi(zipdoc.Attr(t, "r"))
				rows = append(rows, sheetRow{num: n})
				row, nextCol = &rows[len(rows)-1], 0
			case "c":
				inCell, typ, value, inline = true, zipdoc.Attr(t, "t"), strings.Builder{}, strings.Builder{}
				style, _ = strconv.Atoi(zipdoc.Attr(t, "s"))
				cell = sheetCell{col: nextCol}
				if col, ok := columnOf(zipdoc.Attr(t, "r")); ok {
					cell.col = col
				}
			case "rPh":
				if err := skipRaw(d); err != nil {
					return nil, nil, zipdoc.XMLError(sh.part, err)
				}
			case "hyperlink":
				if id := zipdoc.Attr(t, "id"); id != "" && len(hyperlinks) < maxHyperlinks {
					hyperlinks[zipdoc.Attr(t, "ref")] = id
				}
			}
		case xml.CharData:
			if !inCell {
				continue
			}
			switch top {
			case "v":
				if value.Len() < maxCellBytes {
					value.Write(t)
				}
			case "t":
				if inline.Len() < maxCellBytes {
					inline.Write(t)
				}
			}
		case xml.EndElement:
			top = ""
			if t.Name.Local != "c" || !inCell {
				continue
			}
			inCell = false
			if row == nil || cell.col >= r.cfg.MaxColumns {
				if row != nil {
					r.warnOnce("columns:"+sh.name, fmt.Sprintf("sheet %q cut at %d columns (max_columns): the columns after it are left out", sh.name, r.cfg.MaxColumns))
				}
				continue
			}
			cell.text = book.cellText(typ, style, value.String(), inline.String())
			nextCol = cell.col + 1
			if cell.text == "" {
				continue
			}
			// The rows are held until the sheet ends: past the output cap
			// they could never be written anyway.
			if size += int64(len(cell.text)); size > r.outputLeft() {
				return rows, hyperlinks, nil // the output cap's warning names the sheet
			}
			row.cells = append(row.cells, cell)
		}
	}
}

// skipRaw skips the rest of the element just started, read as raw
// tokens (Skip reads translated ones, whose stack raw reading leaves
// empty).
func skipRaw(d *xml.Decoder) error {
	for depth := 1; depth > 0; {
		tok, err := d.RawToken()
		if err != nil {
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return nil
}

// Bounds of one sheet's cells.
const (
	maxCellBytes  = 32 << 10
	maxHyperlinks = 100_000
)

// outputLeft is how many more bytes of content the writer takes.
func (r *reader) outputLeft() int64 {
	return r.maxOut - int64(r.w.Len())
}

// applyHyperlinks gives the cells that hyperlinks name their URLs.
func applyHyperlinks(r *reader, rows []sheetRow, hyperlinks map[string]string, links rels) {
	for i := range rows {
		for j := range rows[i].cells {
			c := &rows[i].cells[j]
			id, ok := hyperlinks[columnName(c.col)+strconv.Itoa(rows[i].num)]
			if !ok {
				continue
			}
			if target, ok := links[id]; ok && target.external {
				c.link, _ = r.links.Add(target.target)
			}
		}
	}
}

// writeRows writes a sheet's rows as a table, its first row the header,
// from its first column with a value to its last; an empty sheet says so.
func writeRows(r *reader, rows []sheetRow) {
	first, last := -1, -1
	for _, row := range rows {
		for _, c := range row.cells {
			if first < 0 || c.col < first {
				first = c.col
			}
			last = max(last, c.col)
		}
	}
	if last < 0 {
		r.w.Paragraph("*(empty sheet)*")
		return
	}
	table := make([][]string, 0, len(rows))
	for _, row := range rows {
		if len(row.cells) == 0 {
			continue
		}
		cells := make([]string, last-first+1)
		for _, c := range row.cells {
			var in markdown.Inline
			in.Add(c.text, markdown.Style{Link: c.link})
			cells[c.col-first] = in.Cell()
		}
		table = append(table, cells)
	}
	r.w.Table(table)
}

// columnOf returns the zero-based column of a cell reference ("C7" is
// 2); ok is false for no reference or a malformed one.
func columnOf(ref string) (int, bool) {
	col := 0
	i := 0
	for ; i < len(ref) && ref[i] >= 'A' && ref[i] <= 'Z'; i++ {
		col = col*26 + int(ref[i]-'A'+1)
		if col > 1<<14 {
			return 0, false
		}
	}
	if i == 0 {
		return 0, false
	}
	return col - 1, true
}

// columnName is columnOf's inverse: 2 is "C".
func columnName(col int) string {
	name := ""
	for col++; col > 0; col = (col - 1) / 26 {
		name = string(rune('A'+(col-1)%26)) + name
	}
	return name
}

// escapedLine is text as inline markdown on one line.
func escapedLine(text string) string {
	var in markdown.Inline
	in.Text(text)
	return in.String()
}
