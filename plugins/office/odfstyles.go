package office

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/siftd/sift/plugins/zipdoc"
)

// odfStyle is what the reader needs of an ODF style: the text
// properties it sets and the style it inherits from.
type odfStyle struct {
	parent, display string
	bold, italic    *bool
	strike, mono    bool
}

// odfStyles are a document's styles (styles.xml and content.xml's
// automatic ones) and list styles, whose levels are numbered or not.
type odfStyles struct {
	styles map[string]*odfStyle
	lists  map[string][10]bool
	// fonts are the font faces declared fixed-pitch.
	mono map[string]bool
}

func newODFStyles() *odfStyles {
	return &odfStyles{styles: map[string]*odfStyle{}, lists: map[string][10]bool{}, mono: map[string]bool{}}
}

// readStylesPart reads the styles of styles.xml.
func (s *odfStyles) readStylesPart(a *zipdoc.Archive) error {
	const name = "styles.xml"
	if !a.Has(name) {
		return nil
	}
	rc, err := a.Open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	d := zipdoc.NewDecoder(rc)
	var cur *odfStyle
	list := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return zipdoc.XMLError(name, err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			cur, list = s.take(se, cur, list)
		}
	}
}

// take reads one start element of a style definition, in styles.xml or
// content.xml's automatic styles, and returns the style and list style
// being defined.
func (s *odfStyles) take(se xml.StartElement, cur *odfStyle, list string) (*odfStyle, string) {
	switch se.Name.Local {
	case "font-face":
		if zipdoc.Attr(se, "font-pitch") == "fixed" || strings.Contains(strings.ToLower(zipdoc.Attr(se, "font-family")), "mono") {
			s.mono[zipdoc.Attr(se, "name")] = true
		}
	case "style":
		cur = &odfStyle{parent: zipdoc.Attr(se, "parent-style-name"), display: strings.ToLower(zipdoc.Attr(se, "display-name"))}
		if cur.display == "" {
			cur.display = strings.ToLower(strings.ReplaceAll(zipdoc.Attr(se, "name"), "_20_", " "))
		}
		s.styles[zipdoc.Attr(se, "name")] = cur
	case "text-properties":
		if cur == nil {
			break
		}
		if w := zipdoc.Attr(se, "font-weight"); w != "" {
			b := w == "bold" || w >= "600" && w <= "900"
			cur.bold = &b
		}
		if st := zipdoc.Attr(se, "font-style"); st != "" {
			i := st == "italic" || st == "oblique"
			cur.italic = &i
		}
		if lt := zipdoc.Attr(se, "text-line-through-style"); lt != "" && lt != "none" {
			cur.strike = true
		}
		if f := zipdoc.Attr(se, "font-name"); f != "" && (s.mono[f] || strings.Contains(strings.ToLower(f), "mono") || strings.Contains(strings.ToLower(f), "courier")) {
			cur.mono = true
		}
	case "list-style":
		list = zipdoc.Attr(se, "name")
		cur = nil
		if _, ok := s.lists[list]; !ok {
			s.lists[list] = [10]bool{}
		}
	case "list-level-style-number", "list-level-style-bullet", "list-level-style-image":
		if list == "" {
			break
		}
		if n, err := strconv.Atoi(zipdoc.Attr(se, "level")); err == nil && n >= 1 && n <= 10 {
			levels := s.lists[list]
			levels[n-1] = se.Name.Local == "list-level-style-number" && zipdoc.Attr(se, "num-format") != ""
			s.lists[list] = levels
		}
	}
	return cur, list
}

// text returns how a text style sets its runs, following its parents.
func (s *odfStyles) text(name string) (bold, italic, strike, code bool) {
	var b, i *bool
	for range 16 {
		st, ok := s.styles[name]
		if !ok {
			break
		}
		if b == nil {
			b = st.bold
		}
		if i == nil {
			i = st.italic
		}
		strike = strike || st.strike
		code = code || st.mono || strings.Contains(st.display, "source") || strings.Contains(st.display, "code") ||
			strings.Contains(st.display, "verbatim") || strings.Contains(st.display, "teletype")
		name = st.parent
	}
	return b != nil && *b, i != nil && *i, strike, code
}

// paragraph classifies a paragraph style by its name and its parents'.
func (s *odfStyles) paragraph(name string) paraKind {
	for range 16 {
		display := strings.ToLower(strings.ReplaceAll(name, "_20_", " "))
		if st, ok := s.styles[name]; ok && st.display != "" {
			display = st.display
		}
		switch {
		case display == "title":
			return kindTitle
		case display == "quotations" || display == "quote" || display == "block text" || display == "blockquote":
			return kindQuote
		case strings.HasPrefix(display, "preformatted") || display == "source code" || display == "code" || display == "source text":
			return kindCode
		}
		st, ok := s.styles[name]
		if !ok {
			break
		}
		name = st.parent
	}
	return kindBody
}

// ordered reports whether level (0-based) of a list style is numbered.
func (s *odfStyles) ordered(list string, level int) bool {
	levels, ok := s.lists[list]
	return ok && level >= 0 && level < 10 && levels[level]
}
