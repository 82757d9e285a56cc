package office

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/siftd/sift/plugins/markdown"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/zipdoc"
)

// readDOCX writes a Word document's body as markdown: its paragraphs by
// their styles (headings, lists, code, quotes), tables, links, emphasis,
// images by their descriptions, footnotes at the end.
func readDOCX(r *reader) error {
	part, links, err := openMain(r, "word/document.xml")
	if err != nil {
		return err
	}
	styleName, _ := links.first("styles")
	styles, err := readStyles(r.zip, styleName)
	if err != nil {
		return err
	}
	numName, _ := links.first("numbering")
	nums, err := readNumbering(r.zip, numName)
	if err != nil {
		return err
	}
	w := &wordReader{r: r, rels: links, styles: styles, nums: nums, out: newBlocks(r.w), part: part}
	if err := w.read(part, w.out); err != nil {
		return err
	}
	w.out.flushCode()
	return w.footnotes()
}

// wordReader reads one WordprocessingML part token by token.
type wordReader struct {
	r      *reader
	rels   rels
	styles wordStyles
	nums   numbering
	out    *blocks
	part   string
	// notes are the footnote ids referenced, in order.
	notes []string
}

// paraState is the paragraph being read.
type paraState struct {
	in     markdown.Inline
	style  string
	numID  string
	ilvl   int
	hasNum bool
	// outline is a heading level the paragraph sets itself (outlineLvl).
	outline int
}

// runState is the run being read: its style as its properties set it.
type runState struct {
	style markdown.Style
}

// cellState is a table cell being read, and the table around it.
type tableState struct {
	rows [][]string
	row  []string
	cell []string
	span int
	// merged marks a cell that continues a vertical merge: it is written
	// empty.
	merged bool
}

// read walks part, writing its blocks to out.
func (w *wordReader) read(part string, out *blocks) error {
	rc, err := w.r.zip.Open(part)
	if err != nil {
		return err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	var (
		stack  []string
		para   *paraState
		pDepth int
		run    runState
		inRPr  bool
		inPPr  bool
		tables []*tableState
		link   string
		field  fieldState
	)
	flush := func() {
		if para == nil {
			return
		}
		if len(tables) > 0 {
			t := tables[len(tables)-1]
			if !para.in.Empty() {
				t.cell = append(t.cell, para.in.Cell())
			}
		} else {
			w.paragraph(para)
		}
		para = nil
	}
	for !w.r.w.Full() {
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
			switch t.Name.Local {
			case "Fallback", "del", "moveFrom", "sectPr", "delText", "tblPr", "trPr", "commentReference", "object", "rubyBase":
				// The same content twice (mc:Fallback), deleted text,
				// properties that hold no text.
				if err := d.Skip(); err != nil {
					return zipdoc.XMLError(part, err)
				}
				stack = stack[:len(stack)-1]
			case "p":
				pDepth++
				if pDepth == 1 {
					para = &paraState{}
				} else if para != nil {
					para.in.Break() // a text box's paragraph inside this one
				}
			case "pPr":
				inPPr = true
			case "rPr":
				inRPr = !inPPr
			case "pStyle":
				if para != nil && inPPr {
					para.style = zipdoc.Attr(t, "val")
				}
			case "numId":
				if para != nil && inPPr {
					para.numID, para.hasNum = zipdoc.Attr(t, "val"), true
				}
			case "ilvl":
				if para != nil && inPPr {
					para.ilvl, _ = strconv.Atoi(zipdoc.Attr(t, "val"))
				}
			case "outlineLvl":
				if para != nil && inPPr {
					if n, err := strconv.Atoi(zipdoc.Attr(t, "val")); err == nil && n < 9 {
						para.outline = n + 1
					}
				}
			case "r":
				run = runState{style: markdown.Style{Link: link}}
				if field.link != "" && field.showing {
					run.style.Link = field.link
				}
			case "b":
				if inRPr {
					run.style.Bold = on(t)
				}
			case "i":
				if inRPr {
					run.style.Italic = on(t)
				}
			case "strike", "dstrike":
				if inRPr {
					run.style.Strike = on(t)
				}
			case "rStyle":
				if inRPr {
					b, i, c := w.styles.character(zipdoc.Attr(t, "val"))
					run.style.Bold, run.style.Italic, run.style.Code = run.style.Bold || b, run.style.Italic || i, c
				}
			case "hyperlink":
				link = w.hyperlink(t)
			case "tab", "ptab":
				if para != nil && !inPPr && !inRPr {
					para.in.Add(" ", run.style)
				}
			case "br", "cr":
				if para != nil && zipdoc.Attr(t, "type") != "page" && zipdoc.Attr(t, "type") != "column" {
					para.in.Break()
				}
			case "noBreakHyphen":
				if para != nil {
					para.in.Add("-", run.style)
				}
			case "docPr":
				if para != nil {
					w.image(&para.in, zipdoc.Attr(t, "descr"), zipdoc.Attr(t, "title"))
				}
			case "imagedata":
				if para != nil {
					w.image(&para.in, zipdoc.Attr(t, "title"), "")
				}
			case "chart":
				if para != nil {
					w.chart(&para.in, zipdoc.Attr(t, "id"))
				}
			case "footnoteReference", "endnoteReference":
				if para != nil && t.Name.Local == "footnoteReference" && len(w.notes) < maxNotes {
					w.notes = append(w.notes, zipdoc.Attr(t, "id"))
					para.in.Markup("[^" + strconv.Itoa(len(w.notes)) + "]")
				}
			case "fldChar":
				if field.char(zipdoc.Attr(t, "fldCharType")) {
					field.link, _ = w.r.links.Add(field.link)
				}
			case "fldSimple":
				if u := hyperlinkField(zipdoc.Attr(t, "instr")); u != "" {
					link, _ = w.r.links.Add(u)
				}
			case "tbl":
				flush()
				if len(tables) >= maxTableDepth {
					if err := d.Skip(); err != nil {
						return zipdoc.XMLError(part, err)
					}
					stack = stack[:len(stack)-1]
					continue
				}
				tables = append(tables, &tableState{})
			case "tr":
				if len(tables) > 0 {
					tables[len(tables)-1].row = nil
				}
			case "tc":
				if len(tables) > 0 {
					tb := tables[len(tables)-1]
					tb.cell, tb.span, tb.merged = nil, 1, false
				}
			case "gridSpan":
				if len(tables) > 0 {
					if n, err := strconv.Atoi(zipdoc.Attr(t, "val")); err == nil && n > 1 && n <= maxSpan {
						tables[len(tables)-1].span = n
					}
				}
			case "vMerge":
				if len(tables) > 0 && zipdoc.Attr(t, "val") != "restart" {
					tables[len(tables)-1].merged = true
				}
			}
		case xml.CharData:
			if para == nil || len(stack) == 0 {
				continue
			}
			switch stack[len(stack)-1] {
			case "t":
				if !field.hiding() {
					para.in.Add(string(t), run.style)
				}
			case "instrText":
				field.instr(string(t))
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			switch t.Name.Local {
			case "p":
				pDepth--
				if pDepth == 0 {
					flush()
				}
			case "pPr":
				inPPr = false
			case "rPr":
				inRPr = false
			case "hyperlink", "fldSimple":
				link = ""
			case "tc":
				if len(tables) > 0 {
					flush()
					tb := tables[len(tables)-1]
					cell := strings.Join(tb.cell, "<br>")
					if tb.merged {
						cell = ""
					}
					tb.row = append(tb.row, cell)
					for range tb.span - 1 {
						tb.row = append(tb.row, "")
					}
				}
			case "tr":
				if len(tables) > 0 {
					tb := tables[len(tables)-1]
					if len(tb.rows) < w.r.cfg.MaxRows {
						tb.rows = append(tb.rows, tb.row)
					} else {
						w.r.cutRows("a table", len(tb.rows))
					}
				}
			case "tbl":
				if len(tables) == 0 {
					continue
				}
				tb := tables[len(tables)-1]
				tables = tables[:len(tables)-1]
				if len(tables) == 0 {
					w.out.table(tb.rows)
				} else {
					// A table in a cell: its rows become lines of the cell.
					outer := tables[len(tables)-1]
					for _, row := range tb.rows {
						outer.cell = append(outer.cell, strings.Join(nonEmpty(row), "; "))
					}
				}
			}
		}
	}
	flush()
	return nil
}

// paragraph writes a finished body paragraph as the block its style and
// list membership make it.
func (w *wordReader) paragraph(p *paraState) {
	kind, level := w.styles.paragraph(p.style)
	if p.outline > 0 && kind == kindBody {
		kind, level = kindHeading, p.outline
	}
	numID, ilvl := p.numID, p.ilvl
	if !p.hasNum {
		numID, ilvl = w.styles.list(p.style)
	}
	if p.in.Empty() {
		return
	}
	switch kind {
	case kindHeading, kindTitle:
		w.out.heading(level, &p.in)
		return
	case kindCode:
		w.out.codeLine(&p.in)
		return
	case kindQuote:
		w.out.quote(&p.in)
		return
	}
	if numID != "" && numID != "0" {
		list := w.nums[numID]
		ordered := ilvl >= 0 && ilvl < 9 && list.ordered[ilvl]
		// Instances of one abstract list continue its numbering.
		w.out.item("abstract:"+list.abstract, ilvl, ordered, &p.in)
		return
	}
	w.out.para(&p.in)
}

// hyperlink returns the URL a w:hyperlink links to: its relationship's
// target (an external one is only written, never read); a link to a
// bookmark of the document itself links nowhere outside it.
func (w *wordReader) hyperlink(se xml.StartElement) string {
	id := zipdoc.AttrNS(se, nsRel, "id")
	if id == "" {
		id = zipdoc.Attr(se, "id")
	}
	target, ok := w.rels[id]
	if !ok || !target.external {
		return ""
	}
	abs, ok := w.r.links.Add(target.target)
	if !ok {
		return ""
	}
	return abs
}

// image writes an image as its description: its alt text, else its title.
func (w *wordReader) image(in *markdown.Inline, descr, title string) {
	text := strings.TrimSpace(descr)
	if text == "" {
		text = strings.TrimSpace(title)
	}
	if text == "" {
		return
	}
	in.Add(" Image: "+text+" ", markdown.Style{Italic: true})
}

// chart writes a chart's title and series as text.
func (w *wordReader) chart(in *markdown.Inline, id string) {
	target, ok := w.rels[id]
	if !ok || target.external {
		return
	}
	if text := chartText(w.r, target.target); text != "" {
		in.Add(" "+text+" ", markdown.Style{Italic: true})
	}
}

// footnotes writes the footnotes the body referenced, after it.
func (w *wordReader) footnotes() error {
	name, ok := w.rels.first("footnotes")
	if !ok || len(w.notes) == 0 || !w.r.zip.Has(name) {
		return nil
	}
	notes, err := readNotes(w.r.zip, name)
	if err != nil {
		return err
	}
	for i, id := range w.notes {
		if text, ok := notes[id]; ok {
			w.r.w.Paragraph("[^" + strconv.Itoa(i+1) + "]: " + text)
		}
	}
	return nil
}

// readNotes reads footnotes.xml into each note's text by id.
func readNotes(a *zipdoc.Archive, name string) (map[string]string, error) {
	rc, err := a.Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	out := map[string]string{}
	var id string
	var in markdown.Inline
	var top string
	for len(out) < maxNotes {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, zipdoc.XMLError(name, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			top = t.Name.Local
			switch top {
			case "footnote":
				id = zipdoc.Attr(t, "id")
				in.Reset()
			case "p":
				if !in.Empty() {
					in.Text(" ")
				}
			}
		case xml.CharData:
			if top == "t" && id != "" {
				in.Text(string(t))
			}
		case xml.EndElement:
			top = ""
			if t.Name.Local == "footnote" && id != "" {
				out[id] = in.String()
				id = ""
			}
		}
	}
	return out, nil
}

// fieldState follows a complex field (fldChar begin … separate … end):
// its instruction is hidden, its result shown, and a HYPERLINK field's
// result links to its URL.
type fieldState struct {
	depth   int
	inInstr bool
	showing bool
	code    strings.Builder
	link    string
}

// char follows a fldChar; it reports whether a HYPERLINK field's result
// starts, whose link is then f.link.
func (f *fieldState) char(typ string) bool {
	switch typ {
	case "begin":
		f.depth++
		if f.depth == 1 {
			f.inInstr, f.showing, f.link = true, false, ""
			f.code.Reset()
		}
	case "separate":
		if f.depth == 1 {
			f.inInstr, f.showing = false, true
			f.link = hyperlinkField(f.code.String())
			return f.link != ""
		}
	case "end":
		if f.depth > 0 {
			f.depth--
		}
		if f.depth == 0 {
			f.inInstr, f.showing, f.link = false, false, ""
		}
	}
	return false
}

func (f *fieldState) instr(s string) {
	if f.depth == 1 && f.code.Len() < 4<<10 {
		f.code.WriteString(s)
	}
}

// hiding reports whether text now is a field's instruction.
func (f *fieldState) hiding() bool { return f.depth > 0 && f.inInstr }

// hyperlinkField returns the URL of a HYPERLINK field's instruction.
func hyperlinkField(code string) string {
	fields := strings.Fields(code)
	if len(fields) < 2 || !strings.EqualFold(fields[0], "HYPERLINK") {
		return ""
	}
	for _, f := range fields[1:] {
		if strings.HasPrefix(f, `\`) {
			continue
		}
		return strings.Trim(f, `"`)
	}
	return ""
}

func nonEmpty(cells []string) []string {
	out := cells[:0:0]
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			out = append(out, c)
		}
	}
	return out
}

// tooDeep is a part nested past maxDepth elements: no real document is,
// and following it would cost memory by the level.
func tooDeep(part string) error {
	return sdk.Invalid("%s: XML nested deeper than %d elements", part, maxDepth)
}
