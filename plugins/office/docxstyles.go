package office

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/siftd/sift/plugins/zipdoc"
)

// paraKind is what a Word paragraph style makes of a paragraph.
type paraKind int

const (
	kindBody paraKind = iota
	kindHeading
	kindCode
	kindQuote
	kindTitle
)

// wordStyle is what the reader needs of one style of styles.xml.
type wordStyle struct {
	name, basedOn string
	// outline is the heading level from the style's outlineLvl (1..9),
	// 0 for none.
	outline int
	bold    bool
	italic  bool
	// numID and ilvl are a list the style itself puts its paragraphs in.
	numID string
	ilvl  int
}

// wordStyles maps style ids to styles.
type wordStyles map[string]*wordStyle

// readStyles reads styles.xml; a document without one has only the
// built-in names to go by.
func readStyles(a *zipdoc.Archive, name string) (wordStyles, error) {
	out := wordStyles{}
	if name == "" || !a.Has(name) {
		return out, nil
	}
	rc, err := a.Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	var cur *wordStyle
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, zipdoc.XMLError(name, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "style":
			cur = &wordStyle{}
			out[zipdoc.Attr(se, "styleId")] = cur
		case "name":
			if cur != nil {
				cur.name = strings.ToLower(zipdoc.Attr(se, "val"))
			}
		case "basedOn":
			if cur != nil {
				cur.basedOn = zipdoc.Attr(se, "val")
			}
		case "outlineLvl":
			if cur != nil {
				if n, err := strconv.Atoi(zipdoc.Attr(se, "val")); err == nil && n >= 0 && n < 9 {
					cur.outline = n + 1
				}
			}
		case "b":
			if cur != nil {
				cur.bold = on(se)
			}
		case "i":
			if cur != nil {
				cur.italic = on(se)
			}
		case "numId":
			if cur != nil {
				cur.numID = zipdoc.Attr(se, "val")
			}
		case "ilvl":
			if cur != nil {
				cur.ilvl, _ = strconv.Atoi(zipdoc.Attr(se, "val"))
			}
		}
	}
}

// on reads a toggle property (<w:b/>, <w:b w:val="0"/>).
func on(se xml.StartElement) bool {
	switch strings.ToLower(zipdoc.Attr(se, "val")) {
	case "0", "false", "off", "none":
		return false
	}
	return true
}

// lookup follows a style and the styles it is based on, at most a few
// levels (a cycle of basedOn must not loop).
func (s wordStyles) lookup(id string, f func(*wordStyle) bool) {
	for range 16 {
		st, ok := s[id]
		if !ok || f(st) {
			return
		}
		id = st.basedOn
	}
}

// paragraph classifies a paragraph of style id: its kind and, for a
// heading, its level.
func (s wordStyles) paragraph(id string) (paraKind, int) {
	names := []string{strings.ToLower(id)}
	outline := 0
	s.lookup(id, func(st *wordStyle) bool {
		names = append(names, st.name)
		if outline == 0 {
			outline = st.outline
		}
		return false
	})
	for _, n := range names {
		n = strings.ReplaceAll(n, " ", "")
		switch {
		case n == "title":
			return kindTitle, 1
		case strings.HasPrefix(n, "heading") && len(n) == len("heading")+1 && n[7] >= '1' && n[7] <= '9':
			return kindHeading, int(n[7] - '0')
		case n == "sourcecode" || n == "htmlpreformatted" || n == "code" || n == "preformattedtext" || n == "plaintext":
			return kindCode, 0
		case n == "quote" || n == "blocktext" || n == "intensequote" || n == "quotations" || n == "blockquote":
			return kindQuote, 0
		}
	}
	if outline > 0 {
		return kindHeading, outline
	}
	return kindBody, 0
}

// list returns the list a style puts its paragraphs in, if any.
func (s wordStyles) list(id string) (numID string, ilvl int) {
	s.lookup(id, func(st *wordStyle) bool {
		if st.numID != "" {
			numID, ilvl = st.numID, st.ilvl
			return true
		}
		return false
	})
	return numID, ilvl
}

// character returns how a character style (rStyle) sets its runs.
func (s wordStyles) character(id string) (bold, italic, code bool) {
	n := strings.ToLower(id)
	code = strings.Contains(n, "verbatim") || strings.Contains(n, "code") || n == "htmlcode" || n == "sourcetext"
	switch n {
	case "strong":
		bold = true
	case "emphasis":
		italic = true
	}
	s.lookup(id, func(st *wordStyle) bool {
		bold = bold || st.bold
		italic = italic || st.italic
		code = code || strings.Contains(st.name, "code") || strings.Contains(st.name, "verbatim")
		return false
	})
	return bold, italic, code
}

// numbering maps a list instance (numId) to its abstract list and
// whether each of its levels is ordered.
type numbering map[string]wordList

type wordList struct {
	abstract string
	ordered  [9]bool
}

// readNumbering reads numbering.xml: which list levels are numbered and
// which bulleted.
func readNumbering(a *zipdoc.Archive, name string) (numbering, error) {
	out := numbering{}
	if name == "" || !a.Has(name) {
		return out, nil
	}
	rc, err := a.Open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	abstract := map[string][9]bool{}
	var curAbs string
	lvl := -1
	var curNum string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, zipdoc.XMLError(name, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "abstractNum":
			curAbs, curNum = zipdoc.Attr(se, "abstractNumId"), ""
		case "lvl":
			lvl, _ = strconv.Atoi(zipdoc.Attr(se, "ilvl"))
		case "numFmt":
			if curAbs != "" && lvl >= 0 && lvl < 9 {
				f := zipdoc.Attr(se, "val")
				levels := abstract[curAbs]
				levels[lvl] = f != "bullet" && f != "none" && f != ""
				abstract[curAbs] = levels
			}
		case "num":
			curNum, curAbs = zipdoc.Attr(se, "numId"), ""
		case "abstractNumId":
			if curNum != "" {
				id := zipdoc.Attr(se, "val")
				out[curNum] = wordList{abstract: id, ordered: abstract[id]}
			}
		}
	}
	return out, nil
}
