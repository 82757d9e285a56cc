package office

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"

	"github.com/siftd/sift/plugins/markdown"
	"github.com/siftd/sift/plugins/zipdoc"
)

// maxSlides bounds the slides read of one presentation.
const maxSlides = 5_000

// readPPTX writes a presentation slide by slide, in the order the
// presentation lists them: `## Slide N: title`, the slide's text, tables,
// images' descriptions and charts' titles, then its speaker notes.
func readPPTX(r *reader) error {
	part, links, err := openMain(r, "ppt/presentation.xml")
	if err != nil {
		return err
	}
	slides, err := slideOrder(r.zip, part, links)
	if err != nil {
		return err
	}
	for i, slide := range slides {
		if r.w.Full() || r.ctx.Err() != nil {
			break
		}
		if i == maxSlides {
			r.warnOnce("slides", fmt.Sprintf("slides cut at %d: the slides after it are left out", maxSlides))
			break
		}
		r.where = fmt.Sprintf("slide %d", i+1)
		if err := writeSlide(r, i+1, slide); err != nil {
			return err
		}
	}
	return nil
}

// slideOrder lists the presentation's slide parts in its own order
// (p:sldIdLst), each a relationship of the presentation part.
func slideOrder(a *zipdoc.Archive, part string, links rels) ([]string, error) {
	rc, err := a.Open(part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	var out []string
	seen := map[string]bool{}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, zipdoc.XMLError(part, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "sldId" {
			continue
		}
		// A slide listed twice is read once (see zipdoc.MinTotalBytes).
		if target, ok := links[zipdoc.AttrNS(se, nsRel, "id")]; ok && !target.external && a.Has(target.target) && !seen[target.target] {
			seen[target.target] = true
			out = append(out, target.target)
		}
	}
}

func writeSlide(r *reader, n int, part string) error {
	links, err := relsOf(r.zip, part)
	if err != nil {
		return err
	}
	shapes, err := readShapes(r, part, links)
	if err != nil {
		return err
	}
	title := ""
	for _, s := range shapes {
		if s.placeholder == "title" || s.placeholder == "ctrTitle" {
			title = shapeLine(s)
			break
		}
	}
	heading := fmt.Sprintf("Slide %d", n)
	if title != "" {
		heading += ": " + title
	}
	r.w.Heading(2, heading)
	out := newBlocks(r.w)
	for i, s := range shapes {
		switch {
		case s.placeholder == "title" || s.placeholder == "ctrTitle":
			if shapeLine(s) == title {
				continue
			}
		case s.placeholder == "sldNum" || s.placeholder == "dt" || s.placeholder == "ftr":
			continue
		}
		writeShape(out, s, fmt.Sprintf("%s/%d", part, i))
	}
	if notes, ok := links.first("notesSlide"); ok && r.zip.Has(notes) {
		return writeNotes(r, notes)
	}
	return nil
}

// writeShape writes one shape: a body placeholder's paragraphs are a
// list, as the slide shows them, unless they say they have no bullet.
func writeShape(out *blocks, s shape, id string) {
	bodyList := s.placeholder == "body" || s.placeholder == "obj"
	for _, p := range s.paras {
		if p.in.Empty() {
			continue
		}
		bullet := bodyList
		if p.bullet != nil {
			bullet = *p.bullet
		}
		if s.placeholder == "subTitle" {
			bullet = false
		}
		if bullet {
			out.item(id, p.level, p.ordered, &p.in)
		} else {
			out.para(&p.in)
		}
	}
	if len(s.table) > 0 {
		out.table(s.table)
	}
	if s.text != "" {
		var in markdown.Inline
		in.Add(s.text, markdown.Style{Italic: true})
		out.para(&in)
	}
}

// writeNotes writes a slide's speaker notes: the notes page's body text.
func writeNotes(r *reader, part string) error {
	links, err := relsOf(r.zip, part)
	if err != nil {
		return err
	}
	shapes, err := readShapes(r, part, links)
	if err != nil {
		return err
	}
	var in markdown.Inline
	for _, s := range shapes {
		if s.placeholder != "body" {
			continue
		}
		for _, p := range s.paras {
			if p.in.Empty() {
				continue
			}
			if !in.Empty() {
				in.Break()
			}
			in.Markup(p.in.String())
		}
	}
	if in.Empty() {
		return nil
	}
	r.w.Paragraph("**Notes:** " + in.String())
	return nil
}

// shapeLine is a shape's text on one line, for a title.
func shapeLine(s shape) string {
	var in markdown.Inline
	for _, p := range s.paras {
		if !in.Empty() {
			in.Text(" ")
		}
		in.Markup(p.in.String())
	}
	return in.String()
}
