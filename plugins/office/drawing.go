package office

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/siftd/sift/plugins/markdown"
	"github.com/siftd/sift/plugins/zipdoc"
)

// shape is one thing on a slide (or a notes page), in the order the
// slide lists them: a text body's paragraphs, a table, an image's
// description, a chart's text.
type shape struct {
	// placeholder is the shape's placeholder type ("title", "ctrTitle",
	// "body", "sldNum", …), "obj" for one without a type, "" for none.
	placeholder string
	paras       []drawPara
	table       [][]string
	text        string
}

// drawPara is a DrawingML paragraph: its runs, its level, and whether it
// is a bullet or a numbered item by its own properties (nil: as its
// placeholder's kind makes it).
type drawPara struct {
	in      markdown.Inline
	level   int
	bullet  *bool
	ordered bool
}

// readShapes reads the shape tree of a slide or notes part.
func readShapes(r *reader, part string, links rels) ([]shape, error) {
	rc, err := r.zip.Open(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	var (
		out    []shape
		cur    *shape
		para   *drawPara
		style  markdown.Style
		stack  []string
		inRPr  bool
		tbl    [][]string
		row    []string
		cell   []string
		inCell bool
	)
	depthOf := func(name string) bool { return len(stack) > 0 && stack[len(stack)-1] == name }
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, zipdoc.XMLError(part, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return nil, tooDeep(part)
			}
			stack = append(stack, t.Name.Local)
			switch t.Name.Local {
			case "Fallback":
				if err := d.Skip(); err != nil {
					return nil, zipdoc.XMLError(part, err)
				}
				stack = stack[:len(stack)-1]
			case "sp", "pic", "graphicFrame", "cxnSp":
				out = append(out, shape{})
				cur = &out[len(out)-1]
			case "ph":
				if cur != nil {
					cur.placeholder = zipdoc.Attr(t, "type")
					if cur.placeholder == "" {
						cur.placeholder = "obj"
					}
				}
			case "cNvPr":
				if cur != nil && len(stack) >= 2 && stack[len(stack)-2] == "nvPicPr" {
					if descr := strings.TrimSpace(zipdoc.Attr(t, "descr")); descr != "" {
						cur.text = "Image: " + descr
					} else if title := strings.TrimSpace(zipdoc.Attr(t, "title")); title != "" {
						cur.text = "Image: " + title
					}
				}
			case "chart":
				if cur != nil {
					if target, ok := links[zipdoc.AttrNS(t, nsRel, "id")]; ok && !target.external {
						cur.text = chartText(r, target.target)
					}
				}
			case "tbl":
				tbl = nil
			case "tr":
				row = nil
			case "tc":
				cell, inCell = nil, true
				if zipdoc.Attr(t, "hMerge") == "1" || zipdoc.Attr(t, "vMerge") == "1" {
					cell = []string{}
				}
			case "p":
				para = &drawPara{}
			case "pPr":
				if para != nil {
					if n, err := strconv.Atoi(zipdoc.Attr(t, "lvl")); err == nil && n >= 0 {
						para.level = n
					}
				}
			case "buNone":
				if para != nil {
					f := false
					para.bullet = &f
				}
			case "buChar", "buAutoNum", "buBlip":
				if para != nil {
					b := true
					para.bullet, para.ordered = &b, t.Name.Local == "buAutoNum"
				}
			case "r", "fld":
				style = markdown.Style{}
			case "rPr":
				inRPr = true
				style.Bold = zipdoc.Attr(t, "b") == "1" || zipdoc.Attr(t, "b") == "true"
				style.Italic = zipdoc.Attr(t, "i") == "1" || zipdoc.Attr(t, "i") == "true"
				style.Strike = zipdoc.Attr(t, "strike") == "sngStrike" || zipdoc.Attr(t, "strike") == "dblStrike"
			case "hlinkClick":
				if inRPr {
					if target, ok := links[zipdoc.AttrNS(t, nsRel, "id")]; ok && target.external {
						style.Link, _ = r.links.Add(target.target)
					}
				}
			case "br":
				if para != nil {
					para.in.Break()
				}
			}
		case xml.CharData:
			if para != nil && depthOf("t") {
				para.in.Add(string(t), style)
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			switch t.Name.Local {
			case "rPr":
				inRPr = false
			case "p":
				if para == nil {
					continue
				}
				switch {
				case inCell:
					if !para.in.Empty() {
						cell = append(cell, para.in.Cell())
					}
				case cur != nil:
					cur.paras = append(cur.paras, *para)
				}
				para = nil
			case "tc":
				row = append(row, strings.Join(cell, "<br>"))
				inCell = false
			case "tr":
				if len(tbl) < r.cfg.MaxRows {
					tbl = append(tbl, row)
				}
			case "tbl":
				if cur != nil {
					cur.table = tbl
				}
			}
		}
	}
}

// chartText is a chart's title and series names as one line: what an
// agent can say of a chart without its numbers.
func chartText(r *reader, part string) string {
	rc, err := r.zip.Open(part)
	if err != nil {
		return ""
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	var stack []string
	var title strings.Builder
	var series []string
	var name strings.Builder
	in := func(names ...string) bool {
		for _, n := range names {
			found := false
			for _, s := range stack {
				if s == n {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return ""
			}
			stack = append(stack, t.Name.Local)
			if t.Name.Local == "ser" {
				name.Reset()
			}
		case xml.CharData:
			top := ""
			if len(stack) > 0 {
				top = stack[len(stack)-1]
			}
			switch {
			case top == "t" && in("title") && !in("valAx") && !in("catAx") && !in("dateAx") && !in("serAx") && title.Len() < 1024:
				title.Write(t)
			case top == "v" && in("ser", "tx") && name.Len() < 256:
				name.Write(t)
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if t.Name.Local == "ser" && len(series) < 64 {
				if s := strings.TrimSpace(name.String()); s != "" {
					series = append(series, s)
				}
			}
		}
	}
	text := "Chart"
	if s := strings.Join(strings.Fields(title.String()), " "); s != "" {
		text += ": " + s
	}
	if len(series) > 0 {
		text += " (series: " + strings.Join(series, ", ") + ")"
	}
	return text
}
