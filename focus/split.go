// Package focus keeps the part of a page an agent asked about: it splits
// clean markdown at its structure, scores the parts against the question
// (BM25 over the page's own parts, optionally reranked by an embeddings
// endpoint), and returns the most relevant ones in page order within a
// token budget, each under its heading path.
package focus

import (
	"strings"
)

// Kind says what structure a part is.
type Kind int

// Kinds of part.
const (
	Paragraph Kind = iota
	ListItem
	TableRow
	Code
)

// Part is one unit of the page that is kept or left out whole.
type Part struct {
	Kind Kind
	// Text is the part's markdown, Start and End its byte range in the page.
	Text       string
	Start, End int
	// Path indexes the Context lines it sits under: its headings, outermost
	// first, and for a table row the table's header.
	Path []int
	// Cont marks a piece of a long paragraph that continues the part
	// before it: kept together, the two are written as one paragraph.
	Cont bool
}

// Split is a page cut at its structure.
type Split struct {
	Parts []Part
	// Context holds the heading lines and table headers parts sit under.
	Context []string
}

// line is one line of the page with its byte offset.
type line struct {
	text       string
	start, end int
}

func lines(md string) []line {
	var out []line
	for off := 0; off < len(md); {
		i := strings.IndexByte(md[off:], '\n')
		end := len(md)
		if i >= 0 {
			end = off + i
		}
		out = append(out, line{text: strings.TrimSuffix(md[off:end], "\r"), start: off, end: end})
		off = end + 1
	}
	return out
}

// splitter walks the lines once, keeping the open headings.
type splitter struct {
	md     string
	ls     []line
	i      int
	out    Split
	levels []int // heading level of each entry of stack
	stack  []int // indexes into out.Context
}

// SplitMarkdown cuts md into paragraphs, list items, table rows and code
// blocks; headings become the path of the parts below them.
func SplitMarkdown(md string) Split {
	s := &splitter{md: md, ls: lines(md)}
	for s.i < len(s.ls) {
		l := s.ls[s.i]
		t := strings.TrimSpace(l.text)
		switch {
		case t == "":
			s.i++
		case fence(t) != "":
			s.code(fence(t))
		case headingLevel(t) > 0:
			s.heading(headingLevel(t), t)
		case isTableLine(t):
			s.table()
		case listMarker(l.text):
			s.item()
		default:
			s.paragraph()
		}
	}
	return s.out
}

func (s *splitter) path() []int {
	if len(s.stack) == 0 {
		return nil
	}
	return append([]int(nil), s.stack...)
}

func (s *splitter) add(k Kind, from, to int, path []int) {
	start, end := s.ls[from].start, s.ls[to-1].end
	text := strings.TrimRight(s.md[start:end], " \t\r\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	s.out.Parts = append(s.out.Parts, Part{Kind: k, Text: text, Start: start, End: start + len(text), Path: path})
}

func (s *splitter) heading(level int, t string) {
	for len(s.levels) > 0 && s.levels[len(s.levels)-1] >= level {
		s.levels, s.stack = s.levels[:len(s.levels)-1], s.stack[:len(s.stack)-1]
	}
	s.out.Context = append(s.out.Context, t)
	s.levels, s.stack = append(s.levels, level), append(s.stack, len(s.out.Context)-1)
	s.i++
}

// code keeps a fenced block whole, to its closing fence or the page's end.
func (s *splitter) code(marker string) {
	from := s.i
	s.i++
	for s.i < len(s.ls) {
		t := strings.TrimSpace(s.ls[s.i].text)
		s.i++
		if strings.HasPrefix(t, marker) && strings.Trim(t, marker[:1]) == "" {
			break
		}
	}
	s.add(Code, from, s.i, s.path())
}

// table makes each row a part under the table's header, when it has one.
func (s *splitter) table() {
	from := s.i
	for s.i < len(s.ls) && isTableLine(strings.TrimSpace(s.ls[s.i].text)) {
		s.i++
	}
	path := s.path()
	rows := from
	if s.i-from >= 2 && isDelimiterRow(strings.TrimSpace(s.ls[from+1].text)) {
		s.out.Context = append(s.out.Context, s.md[s.ls[from].start:s.ls[from+1].end])
		path = append(path, len(s.out.Context)-1)
		rows = from + 2
	}
	for r := rows; r < s.i; r++ {
		s.add(TableRow, r, r+1, path)
	}
}

// item takes a list item with its continuation lines and nested items.
func (s *splitter) item() {
	from := s.i
	indent := indentOf(s.ls[s.i].text)
	s.i++
	for s.i < len(s.ls) {
		l := s.ls[s.i].text
		t := strings.TrimSpace(l)
		if t == "" {
			// A blank line ends the item unless an indented line follows.
			if s.i+1 < len(s.ls) && indentOf(s.ls[s.i+1].text) > indent && strings.TrimSpace(s.ls[s.i+1].text) != "" {
				s.i++
				continue
			}
			break
		}
		if indentOf(l) <= indent && (listMarker(l) || fence(t) != "" || headingLevel(t) > 0 || isTableLine(t)) {
			break
		}
		s.i++
	}
	s.add(ListItem, from, s.i, s.path())
}

func (s *splitter) paragraph() {
	from := s.i
	s.i++
	for s.i < len(s.ls) {
		l := s.ls[s.i].text
		t := strings.TrimSpace(l)
		if t == "" || fence(t) != "" || headingLevel(t) > 0 || listMarker(l) || isTableLine(t) {
			break
		}
		s.i++
	}
	s.add(Paragraph, from, s.i, s.path())
}

// fence returns the fence a line opens (``` or ~~~, three or more), or "".
func fence(t string) string {
	for _, c := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, c) {
			n := len(t) - len(strings.TrimLeft(t, c[:1]))
			return t[:n]
		}
	}
	return ""
}

// headingLevel is the level of an ATX heading line, or 0.
func headingLevel(t string) int {
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n == 0 || n > 6 || (len(t) > n && t[n] != ' ' && t[n] != '\t') {
		return 0
	}
	return n
}

func isTableLine(t string) bool {
	return len(t) > 1 && t[0] == '|'
}

func isDelimiterRow(t string) bool {
	return strings.Trim(t, "|-: \t") == "" && strings.Contains(t, "-")
}

func indentOf(l string) int {
	return len(l) - len(strings.TrimLeft(l, " \t"))
}

// listMarker reports whether a line opens a list item: "- ", "* ", "+ "
// or "1. " / "1) " after any indent.
func listMarker(l string) bool {
	t := strings.TrimLeft(l, " \t")
	if len(t) >= 2 && strings.ContainsRune("-*+", rune(t[0])) && (t[1] == ' ' || t[1] == '\t') {
		return !isRule(t)
	}
	n := len(t) - len(strings.TrimLeft(t, "0123456789"))
	return n > 0 && n <= 9 && len(t) > n+1 && (t[n] == '.' || t[n] == ')') && (t[n+1] == ' ' || t[n+1] == '\t')
}

// isRule spots a thematic break such as "* * *" or "- - -".
func isRule(t string) bool {
	return strings.Trim(t, "-*_ \t") == "" && len(strings.Fields(t)) >= 3
}
