package epub

import (
	"io"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/siftd/sift/plugins/markdown"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/zipdoc"
)

func urlUnescape(s string) (string, error) { return url.PathUnescape(s) }

// maxDepth bounds the open elements followed in a chapter; deeper ones
// count as text of the deepest.
const maxDepth = 256

// chapter turns one XHTML document's tokens into markdown blocks: the
// paragraph being read, the lists, quotes and table it stands in.
type chapter struct {
	w     *markdown.Writer
	links *sdk.Links
	in    markdown.Inline
	// styles are the inline styles open, innermost last.
	styles []markdown.Style
	// lists are the open lists, innermost last: whether each is ordered,
	// and its next number.
	lists []list
	quote int
	pre   int
	code  strings.Builder
	table *table
	skip  int
	// heading is the level of the heading being read, 0 for none.
	heading int
}

type list struct {
	ordered bool
	next    int
}

type table struct {
	rows [][]string
	row  []string
	cell *markdown.Inline
}

// readChapter writes one spine document.
func readChapter(a *zipdoc.Archive, name string, w *markdown.Writer, links *sdk.Links) error {
	if !a.Has(name) {
		return nil // a spine item the book lacks: the rest is still read
	}
	rc, err := a.Open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	c := &chapter{w: w, links: links}
	return c.read(html.NewTokenizer(rc))
}

func (c *chapter) read(z *html.Tokenizer) error {
	z.SetMaxBuf(4 << 20)
	depth := 0
	for !c.w.Full() {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if err := z.Err(); err != io.EOF {
				return zipdoc.XMLError("chapter", err)
			}
			c.endBlock()
			return nil
		case html.TextToken:
			c.text(string(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if len(attrs) < 32 {
					attrs[strings.ToLower(string(k))] = string(v)
				}
			}
			a := atom.Lookup(localName(name))
			if tt == html.StartTagToken && !void(a) {
				depth++
				if depth > maxDepth {
					continue
				}
			}
			c.start(a, attrs, tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			name, _ := z.TagName()
			if depth > maxDepth {
				depth--
				continue
			}
			depth = max(depth-1, 0)
			c.end(atom.Lookup(localName(name)))
		}
	}
	return nil
}

// localName drops an XHTML tag's prefix (epub:switch → switch).
func localName(name []byte) []byte {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == ':' {
			return name[i+1:]
		}
	}
	return name
}

func void(a atom.Atom) bool {
	switch a {
	case atom.Br, atom.Img, atom.Hr, atom.Meta, atom.Link, atom.Input, atom.Wbr, atom.Col, atom.Source, atom.Area, atom.Base:
		return true
	}
	return false
}

func (c *chapter) style() markdown.Style {
	if n := len(c.styles); n > 0 {
		return c.styles[n-1]
	}
	return markdown.Style{}
}

func (c *chapter) push(f func(*markdown.Style)) {
	s := c.style()
	f(&s)
	c.styles = append(c.styles, s)
}

func (c *chapter) pop() {
	if n := len(c.styles); n > 0 {
		c.styles = c.styles[:n-1]
	}
}

// inline is where text goes now: a table cell, else the paragraph.
func (c *chapter) inline() *markdown.Inline {
	if c.table != nil && c.table.cell != nil {
		return c.table.cell
	}
	return &c.in
}

func (c *chapter) text(t string) {
	switch {
	case c.skip > 0:
	case c.pre > 0:
		if c.code.Len() < 1<<20 {
			c.code.WriteString(t)
		}
	default:
		c.inline().Add(t, c.style())
	}
}

func (c *chapter) start(a atom.Atom, attrs map[string]string, selfClosing bool) {
	if c.skip > 0 {
		if !selfClosing && !void(a) {
			c.skip++
		}
		return
	}
	switch a {
	case atom.Head, atom.Script, atom.Style, atom.Template, atom.Noscript:
		if !selfClosing {
			c.skip++
		}
	case atom.Nav:
		if strings.Contains(attrs["epub:type"], "toc") || strings.Contains(attrs["type"], "toc") {
			c.skip++
		}
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Aside, atom.Figure,
		atom.Figcaption, atom.Dt, atom.Dd, atom.Address, atom.Caption:
		c.endBlock()
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		c.endBlock()
		c.heading = int(a.String()[1] - '0')
	case atom.Ul, atom.Ol:
		c.endBlock()
		c.lists = append(c.lists, list{ordered: a == atom.Ol, next: 1})
	case atom.Li:
		c.endBlock()
	case atom.Blockquote:
		c.endBlock()
		c.quote++
	case atom.Pre:
		c.endBlock()
		c.pre++
	case atom.Table:
		c.endBlock()
		if c.table == nil {
			c.table = &table{}
		}
	case atom.Tr:
		if c.table != nil {
			c.table.row = nil
		}
	case atom.Td, atom.Th:
		if c.table != nil {
			c.table.cell = &markdown.Inline{}
		}
	case atom.Br:
		if c.pre > 0 {
			c.code.WriteByte('\n')
		} else {
			c.inline().Break()
		}
	case atom.Hr:
		c.endBlock()
		c.w.Rule()
	case atom.Strong, atom.B:
		c.push(func(s *markdown.Style) { s.Bold = true })
	case atom.Em, atom.I, atom.Cite, atom.Dfn, atom.Var:
		c.push(func(s *markdown.Style) { s.Italic = true })
	case atom.S, atom.Del, atom.Strike:
		c.push(func(s *markdown.Style) { s.Strike = true })
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		c.push(func(s *markdown.Style) { s.Code = true })
	case atom.A:
		link := ""
		if isAbsolute(attrs["href"]) {
			link, _ = c.links.Add(attrs["href"])
		}
		c.push(func(s *markdown.Style) { s.Link = link })
	case atom.Img:
		if alt := strings.TrimSpace(attrs["alt"]); alt != "" {
			c.inline().Add(" Image: "+alt+" ", markdown.Style{Italic: true})
		}
	}
}

// isAbsolute reports whether an href names a resource outside the book:
// a relative one names another of its chapters, which is no link an agent
// can follow.
func isAbsolute(href string) bool {
	u, err := url.Parse(strings.TrimSpace(href))
	return err == nil && u.IsAbs()
}

func (c *chapter) end(a atom.Atom) {
	if c.skip > 0 {
		c.skip--
		return
	}
	switch a {
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Aside, atom.Figure,
		atom.Figcaption, atom.Dt, atom.Dd, atom.Address, atom.Caption, atom.Li:
		c.endBlock()
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		c.endBlock()
	case atom.Ul, atom.Ol:
		c.endBlock()
		if n := len(c.lists); n > 0 {
			c.lists = c.lists[:n-1]
		}
		if len(c.lists) == 0 {
			c.w.EndList()
		}
	case atom.Blockquote:
		c.endBlock()
		c.quote = max(c.quote-1, 0)
	case atom.Pre:
		if c.pre > 0 {
			c.pre--
			if c.pre == 0 {
				c.w.Code("", strings.TrimPrefix(c.code.String(), "\n"))
				c.code.Reset()
			}
		}
	case atom.Td, atom.Th:
		if c.table != nil && c.table.cell != nil {
			c.table.row = append(c.table.row, c.table.cell.Cell())
			c.table.cell = nil
		}
	case atom.Tr:
		if c.table != nil && len(c.table.row) > 0 && len(c.table.rows) < 100_000 {
			c.table.rows = append(c.table.rows, c.table.row)
			c.table.row = nil
		}
	case atom.Table:
		if c.table != nil {
			c.w.Table(c.table.rows)
			c.table = nil
		}
	case atom.Strong, atom.B, atom.Em, atom.I, atom.Cite, atom.Dfn, atom.Var, atom.S, atom.Del, atom.Strike,
		atom.Code, atom.Kbd, atom.Samp, atom.Tt, atom.A:
		c.pop()
	}
}

// endBlock writes the paragraph read so far as the block it stands in.
func (c *chapter) endBlock() {
	if c.in.Empty() {
		c.in.Reset()
		c.heading = 0
		return
	}
	switch {
	case c.heading > 0:
		c.w.Heading(c.heading, c.in.String())
	case len(c.lists) > 0:
		l := &c.lists[len(c.lists)-1]
		marker := "-"
		if l.ordered {
			marker = strconv.Itoa(l.next) + "."
			l.next++
		}
		c.w.ListItem(len(c.lists)-1, marker, c.in.String())
	case c.quote > 0:
		c.w.Quote(c.in.String())
	default:
		c.w.Paragraph(c.in.String())
	}
	c.in.Reset()
	c.heading = 0
}
