package office

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/siftd/sift/plugins/markdown"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/zipdoc"
)

// ODF namespaces the reader tells apart.
const (
	nsXlink   = "http://www.w3.org/1999/xlink"
	nsOffice  = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
	nsTable   = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	nsPresent = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
)

// odfMode is which kind of ODF document content.xml holds.
type odfMode int

const (
	odfText odfMode = iota
	odfSheet
	odfSlides
)

func readODT(r *reader) error { return readODF(r, odfText) }
func readODS(r *reader) error { return readODF(r, odfSheet) }
func readODP(r *reader) error { return readODF(r, odfSlides) }

// readODF writes an OpenDocument's content.xml: a text's headings
// (text:h and their outline levels), lists, tables, links, emphasis and
// notes; a spreadsheet's tables one section each under their names; a
// presentation's pages as slides with their notes.
func readODF(r *reader, mode odfMode) error {
	if !r.zip.Has("content.xml") {
		return invalidPackage("an OpenDocument package without content.xml")
	}
	meta, err := odfMeta(r.zip)
	if err != nil {
		return err
	}
	r.meta = meta
	styles := newODFStyles()
	if err := styles.readStylesPart(r.zip); err != nil {
		return err
	}
	o := &odfReader{r: r, styles: styles, mode: mode, out: newBlocks(r.w)}
	if err := o.read(); err != nil {
		return err
	}
	o.out.flushCode()
	o.writeNotes()
	return nil
}

// odfReader walks one content.xml.
type odfReader struct {
	r      *reader
	styles *odfStyles
	mode   odfMode
	out    *blocks
	// notes are the footnotes met, written after the body.
	notes []string
}

// odfPara is the paragraph or heading being read.
type odfPara struct {
	in     markdown.Inline
	level  int // a heading's outline level, 0 for a paragraph
	style  string
	nested int // paragraphs opened inside it (a frame's text box)
}

// odfTable is a table being read.
type odfTable struct {
	name string
	rows [][]string
	row  []string
	cell []string
	// repeatCols and repeatRows are how many times the current cell and
	// row stand (number-columns-repeated, number-rows-repeated).
	repeatCols, repeatRows int
	span                   int
	value                  string
	covered                bool
}

// odfList is one level of the lists being read.
type odfList struct {
	style string
	id    string
}

func (o *odfReader) read() error {
	const part = "content.xml"
	rc, err := o.r.zip.Open(part)
	if err != nil {
		return err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	var (
		stack    []string
		para     *odfPara
		styleRun []markdown.Style
		tables   []*odfTable
		lists    []odfList
		listSeq  int
		lastList string
		cur      *odfStyle
		listDef  string
		inAuto   bool
		page     *slidePage
		inNote   int
		link     string
	)
	style := func() markdown.Style {
		s := markdown.Style{Link: link}
		if n := len(styleRun); n > 0 {
			s = styleRun[n-1]
			s.Link = link
		}
		return s
	}
	target := func() *blocks {
		if page != nil {
			return page.out
		}
		return o.out
	}
	finishPara := func() {
		if para == nil {
			return
		}
		p := para
		para = nil
		if p.in.Empty() {
			return
		}
		if len(tables) > 0 {
			t := tables[len(tables)-1]
			t.cell = append(t.cell, p.in.Cell())
			return
		}
		out := target()
		if page != nil && page.inTitle {
			page.title = append(page.title, p.in.String())
			return
		}
		if page != nil && page.inNotes {
			page.notes = append(page.notes, p.in.String())
			return
		}
		if len(lists) > 0 {
			depth := len(lists) - 1
			l := lists[0]
			listStyle := l.style
			for _, x := range lists {
				if x.style != "" {
					listStyle = x.style
				}
			}
			ordered := o.styles.ordered(listStyle, depth)
			if page != nil && page.inOutline && listStyle == "" {
				ordered = false
			}
			out.item(l.id, depth, ordered, &p.in)
			return
		}
		if p.level > 0 {
			out.heading(p.level, &p.in)
			return
		}
		switch o.styles.paragraph(p.style) {
		case kindTitle:
			out.heading(1, &p.in)
		case kindCode:
			out.codeLine(&p.in)
		case kindQuote:
			out.quote(&p.in)
		default:
			out.para(&p.in)
		}
	}
	for !o.r.w.Full() {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return zipdoc.XMLError(part, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return tooDeep(part)
			}
			stack = append(stack, t.Name.Local)
			if inAuto {
				cur, listDef = o.styles.take(t, cur, listDef)
				continue
			}
			switch t.Name.Local {
			case "automatic-styles", "font-face-decls":
				inAuto = true
				cur, listDef = o.styles.take(t, cur, listDef)
			case "annotation", "tracked-changes", "forms", "table-of-content-source", "illustration-index-source",
				"shapes", "event-listeners", "script", "table-columns", "table-column", "named-expressions",
				"database-ranges", "sequence-decls", "variable-decls", "user-field-decls", "calculation-settings":
				if err := d.Skip(); err != nil {
					return zipdoc.XMLError(part, err)
				}
				stack = stack[:len(stack)-1]
			case "h", "p":
				if para != nil {
					para.nested++
					para.in.Break()
					continue
				}
				para = &odfPara{style: zipdoc.Attr(t, "style-name")}
				if t.Name.Local == "h" {
					para.level = 1
					if n, err := strconv.Atoi(zipdoc.Attr(t, "outline-level")); err == nil && n > 0 {
						para.level = n
					}
				}
			case "span":
				b, i, s, c := o.styles.text(zipdoc.Attr(t, "style-name"))
				base := style()
				styleRun = append(styleRun, markdown.Style{Bold: base.Bold || b, Italic: base.Italic || i, Strike: base.Strike || s, Code: base.Code || c})
			case "a":
				link, _ = o.r.links.Add(zipdoc.AttrNS(t, nsXlink, "href"))
			case "s":
				if para != nil {
					n, _ := strconv.Atoi(zipdoc.Attr(t, "c"))
					para.in.Add(strings.Repeat(" ", min(max(n, 1), 64)), style())
				}
			case "tab":
				if para != nil {
					para.in.Add(" ", style())
				}
			case "line-break":
				if para != nil {
					para.in.Break()
				}
			case "note":
				inNote++
			case "note-citation":
				if err := d.Skip(); err != nil {
					return zipdoc.XMLError(part, err)
				}
				stack = stack[:len(stack)-1]
				if para != nil && inNote == 1 {
					id := strconv.Itoa(len(o.notes) + 1)
					para.in.Markup("[^" + id + "]")
				}
			case "note-body":
				if inNote == 1 {
					// The note's paragraphs are read into the note, not
					// the paragraph citing it.
					body, err := inlineText(d)
					if err != nil {
						return zipdoc.XMLError(part, err)
					}
					stack = stack[:len(stack)-1]
					o.notes = append(o.notes, body)
				}
			case "list":
				listSeq++
				id := zipdoc.Attr(t, "id")
				switch {
				case len(lists) > 0:
					id = lists[0].id
				case zipdoc.Attr(t, "continue-list") != "":
					id = zipdoc.Attr(t, "continue-list")
				case zipdoc.Attr(t, "continue-numbering") == "true" && lastList != "":
					id = lastList
				case id == "":
					id = "odf-list-" + strconv.Itoa(listSeq)
				}
				if len(lists) == 0 {
					lastList = id
				}
				lists = append(lists, odfList{style: zipdoc.Attr(t, "style-name"), id: id})
			case "object":
				// An embedded object (a chart) is a document of its own
				// in the package; a chart is written as its title.
				if text := odfChart(o.r, zipdoc.AttrNS(t, nsXlink, "href")); text != "" {
					o.image(para, target(), text)
				}
			case "image":
				// The frame's title and description follow the image.
			case "title", "desc":
				if len(stack) >= 2 && stack[len(stack)-2] == "frame" || len(stack) >= 2 && stack[len(stack)-2] == "image" {
					text, err := inlineText(d)
					if err != nil {
						return zipdoc.XMLError(part, err)
					}
					stack = stack[:len(stack)-1]
					if text != "" {
						o.image(para, target(), "Image: "+text)
					}
				}
			case "table":
				if t.Name.Space != nsTable {
					continue
				}
				finishPara()
				if len(tables) >= maxTableDepth {
					if err := d.Skip(); err != nil {
						return zipdoc.XMLError(part, err)
					}
					stack = stack[:len(stack)-1]
					continue
				}
				tb := &odfTable{name: zipdoc.AttrNS(t, nsTable, "name")}
				tables = append(tables, tb)
				if o.mode == odfSheet && len(tables) == 1 {
					o.r.where = fmt.Sprintf("sheet %q", tb.name)
				}
			case "table-row":
				if len(tables) > 0 {
					tb := tables[len(tables)-1]
					tb.row = nil
					tb.repeatRows = repeat(zipdoc.AttrNS(t, nsTable, "number-rows-repeated"), o.r.cfg.MaxRows)
				}
			case "table-cell", "covered-table-cell":
				if len(tables) > 0 {
					tb := tables[len(tables)-1]
					tb.cell, tb.covered = nil, t.Name.Local == "covered-table-cell"
					tb.repeatCols = repeat(zipdoc.AttrNS(t, nsTable, "number-columns-repeated"), o.r.cfg.MaxColumns)
					tb.span = repeat(zipdoc.AttrNS(t, nsTable, "number-columns-spanned"), maxSpan)
					tb.value = odfCellValue(t)
				}
			case "page":
				if o.mode == odfSlides && t.Name.Space == "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" {
					finishPara()
					page = newSlidePage(o.r)
					o.r.where = fmt.Sprintf("slide %d", o.r.slide+1)
				}
			case "frame":
				if page != nil {
					switch zipdoc.AttrNS(t, nsPresent, "class") {
					case "title":
						page.inTitle = true
					case "outline":
						page.inOutline = true
					case "notes":
						page.inNotes = true
					}
				}
			case "notes":
				if page != nil {
					page.inNotes = true
				}
			}
		case xml.CharData:
			if para == nil || len(stack) == 0 {
				continue
			}
			switch stack[len(stack)-1] {
			case "p", "h", "span", "a":
				para.in.Add(string(t), style())
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if inAuto {
				if t.Name.Local == "automatic-styles" || t.Name.Local == "font-face-decls" {
					inAuto = false
				}
				continue
			}
			switch t.Name.Local {
			case "h", "p":
				if para != nil && para.nested > 0 {
					para.nested--
					continue
				}
				finishPara()
			case "span":
				if len(styleRun) > 0 {
					styleRun = styleRun[:len(styleRun)-1]
				}
			case "a":
				link = ""
			case "note":
				if inNote > 0 {
					inNote--
				}
			case "list":
				if len(lists) > 0 {
					lists = lists[:len(lists)-1]
				}
			case "table-cell", "covered-table-cell":
				if len(tables) == 0 {
					continue
				}
				tb := tables[len(tables)-1]
				finishPara()
				text := strings.Join(tb.cell, "<br>")
				if text == "" && tb.value != "" && o.mode == odfSheet {
					text = escapedCell(tb.value)
				}
				if tb.covered {
					text = ""
				}
				if text == "" && len(tb.row)+tb.repeatCols > o.r.cfg.MaxColumns {
					// Trailing empty cells repeated to the sheet's edge.
					continue
				}
				for range tb.repeatCols {
					if len(tb.row) >= o.r.cfg.MaxColumns {
						o.r.warnOnce("columns:"+tb.name, fmt.Sprintf("table %q cut at %d columns (max_columns): the columns after it are left out", tb.name, o.r.cfg.MaxColumns))
						break
					}
					tb.row = append(tb.row, text)
				}
				for range tb.span - 1 {
					tb.row = append(tb.row, "")
				}
			case "table-row":
				if len(tables) == 0 {
					continue
				}
				tb := tables[len(tables)-1]
				row := trimEmpty(tb.row)
				if len(row) == 0 {
					continue // empty rows, repeated to the sheet's end
				}
				for range tb.repeatRows {
					if len(tb.rows) >= o.r.cfg.MaxRows {
						o.r.cutRows(fmt.Sprintf("table %q", tb.name), len(tb.rows))
						break
					}
					tb.rows = append(tb.rows, row)
				}
			case "table":
				if t.Name.Space != nsTable || len(tables) == 0 {
					continue
				}
				tb := tables[len(tables)-1]
				tables = tables[:len(tables)-1]
				o.writeTable(tb, tables, target())
			case "frame":
				if page != nil {
					page.inTitle, page.inOutline = false, false
				}
			case "notes":
				if page != nil {
					page.inNotes = false
				}
			case "page":
				if page != nil && t.Name.Space == "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" {
					finishPara()
					o.r.slide++
					page.write(o.r.slide)
					page = nil
				}
			}
		}
	}
	finishPara()
	return nil
}

// writeTable writes a finished table: a sheet under its name, a text's
// table as a table, a table within a table as lines of its cell.
func (o *odfReader) writeTable(tb *odfTable, outer []*odfTable, out *blocks) {
	if len(outer) > 0 {
		parent := outer[len(outer)-1]
		for _, row := range tb.rows {
			parent.cell = append(parent.cell, strings.Join(nonEmpty(row), "; "))
		}
		return
	}
	if o.mode == odfSheet {
		out.flushCode()
		o.r.w.Heading(2, escapedLine(tb.name))
		if len(tb.rows) == 0 {
			o.r.w.Paragraph("*(empty sheet)*")
			return
		}
	}
	out.table(tb.rows)
}

// image writes what stands for a frame (an image's title or
// description, a chart's title): inside a paragraph as a run, else as a
// paragraph of its own.
func (o *odfReader) image(para *odfPara, out *blocks, text string) {
	if para != nil {
		para.in.Add(" "+text+" ", markdown.Style{Italic: true})
		return
	}
	var in markdown.Inline
	in.Add(text, markdown.Style{Italic: true})
	out.para(&in)
}

// odfChart is the text of the chart an embedded object's href names
// ("./Object 1"): "Chart: " and its title; "" when the object is no chart
// or cannot be read.
func odfChart(r *reader, href string) string {
	name := zipdoc.Resolve("", strings.TrimPrefix(href, "./")) + "/content.xml"
	if href == "" || strings.Contains(href, ":") || !r.zip.Has(name) {
		return ""
	}
	rc, err := r.zip.Open(name)
	if err != nil {
		return ""
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	chart, inTitle := false, false
	var title strings.Builder
	for depth := 0; ; {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxDepth {
				return ""
			}
			const nsChart = "urn:oasis:names:tc:opendocument:xmlns:chart:1.0"
			if t.Name.Space == nsChart && t.Name.Local == "chart" {
				chart = true
			}
			if t.Name.Space == nsChart && t.Name.Local == "title" && title.Len() == 0 {
				inTitle = true
			}
		case xml.CharData:
			if inTitle && title.Len() < 1024 {
				title.Write(t)
			}
		case xml.EndElement:
			depth--
			if t.Name.Local == "title" && inTitle {
				inTitle = false
			}
		}
	}
	if !chart {
		return ""
	}
	if s := strings.Join(strings.Fields(title.String()), " "); s != "" {
		return "Chart: " + s
	}
	return "Chart"
}

// writeNotes writes a text's footnotes after it.
func (o *odfReader) writeNotes() {
	if o.mode == odfSlides {
		return
	}
	for i, n := range o.notes {
		o.r.w.Paragraph("[^" + strconv.Itoa(i+1) + "]: " + n)
	}
}

// odfCellValue is a spreadsheet cell's value from its attributes, for a
// cell without text: dates as dates, booleans as TRUE or FALSE.
func odfCellValue(se xml.StartElement) string {
	switch zipdoc.AttrNS(se, nsOffice, "value-type") {
	case "date":
		v := zipdoc.AttrNS(se, nsOffice, "date-value")
		return strings.TrimSuffix(v, "T00:00:00")
	case "time":
		return zipdoc.AttrNS(se, nsOffice, "time-value")
	case "boolean":
		if zipdoc.AttrNS(se, nsOffice, "boolean-value") == "true" {
			return "TRUE"
		}
		return "FALSE"
	case "float", "percentage", "currency":
		if f, err := strconv.ParseFloat(zipdoc.AttrNS(se, nsOffice, "value"), 64); err == nil {
			return plainNumber(f)
		}
	case "string":
		return zipdoc.AttrNS(se, nsOffice, "string-value")
	}
	return ""
}

// inlineText reads the rest of the element just started as plain text,
// its paragraphs joined by spaces.
func inlineText(d *xml.Decoder) (string, error) {
	var b strings.Builder
	depth := 1
	for depth > 0 {
		tok, err := d.Token()
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > maxDepth {
				return "", fmt.Errorf("nested deeper than %d elements", maxDepth)
			}
			if t.Name.Local == "p" || t.Name.Local == "s" || t.Name.Local == "tab" || t.Name.Local == "line-break" {
				b.WriteByte(' ')
			}
		case xml.CharData:
			if b.Len() < maxCellBytes {
				b.Write(t)
			}
		case xml.EndElement:
			depth--
		}
	}
	return escapedLine(b.String()), nil
}

// repeat reads a repetition count, at least 1 and at most limit.
func repeat(v string, limit int) int {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 1
	}
	return min(n, max(limit, 1))
}

// trimEmpty drops a row's trailing empty cells.
func trimEmpty(row []string) []string {
	for len(row) > 0 && row[len(row)-1] == "" {
		row = row[:len(row)-1]
	}
	return row
}

// escapedCell is text as a table cell.
func escapedCell(text string) string {
	var in markdown.Inline
	in.Text(text)
	return in.Cell()
}

func invalidPackage(what string) error { return sdk.Invalid("%s", what) }
