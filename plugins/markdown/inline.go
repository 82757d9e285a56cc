// Package markdown writes the markdown of documents read token by token
// (Office files, e-books): runs of styled text merged into inline
// markdown, and blocks (headings, paragraphs, nested lists, tables,
// quotes, code) written under an output cap that says where it cut.
package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Style is how a run of text is set.
type Style struct {
	Bold, Italic, Strike, Code bool
	// Link is the absolute URL the run links to, or "".
	Link string
}

// Inline collects the runs of one paragraph, heading or cell: their text
// and style, merged and escaped when it is rendered. The zero value is
// empty and ready.
type Inline struct {
	runs []run
	size int
}

type run struct {
	text  string
	style Style
	// markup is text that is markdown already (a footnote's reference).
	markup bool
}

// maxInline bounds one paragraph's text: past it the runs are dropped, so
// a paragraph of a gigabyte costs no more than the output cap allows.
const maxInline = 4 << 20

// Add appends a run of text in a style; a run continuing the last one's
// style joins it.
func (in *Inline) Add(text string, s Style) {
	if text == "" || in.size > maxInline {
		return
	}
	in.size += len(text)
	if n := len(in.runs); n > 0 && in.runs[n-1].style == s && !in.runs[n-1].markup {
		in.runs[n-1].text += text
		return
	}
	in.runs = append(in.runs, run{text: text, style: s})
}

// Markup appends text that is markdown already, written as it is.
func (in *Inline) Markup(text string) {
	if text == "" || in.size > maxInline {
		return
	}
	in.size += len(text)
	in.runs = append(in.runs, run{text: text, markup: true})
}

// Raw returns the runs' text exactly, without markup or escaping: a code
// block's lines.
func (in *Inline) Raw() string {
	var b strings.Builder
	for _, r := range in.runs {
		if !r.markup {
			b.WriteString(r.text)
		}
	}
	return b.String()
}

// Text appends plain text.
func (in *Inline) Text(text string) { in.Add(text, Style{}) }

// Break appends a line break within the paragraph (a soft return).
func (in *Inline) Break() { in.Add("\n", Style{}) }

// Empty reports whether the runs hold nothing but white space.
func (in *Inline) Empty() bool {
	for _, r := range in.runs {
		if strings.TrimSpace(r.text) != "" {
			return false
		}
	}
	return true
}

// Plain returns the runs' text without markup, white space collapsed.
func (in *Inline) Plain() string {
	var b strings.Builder
	for _, r := range in.runs {
		b.WriteString(r.text)
	}
	return collapse(b.String())
}

// Reset empties the runs for reuse.
func (in *Inline) Reset() { in.runs, in.size = in.runs[:0], 0 }

// String renders the runs as inline markdown: text escaped, emphasis
// around the non-blank part of a run, code in backticks, links as
// [text](url); white space collapsed and trimmed, line breaks kept as
// markdown hard breaks.
func (in *Inline) String() string {
	return in.render(false)
}

// Cell renders the runs for a table cell: as String, with pipes escaped
// and line breaks as <br>, since a cell is one line.
func (in *Inline) Cell() string {
	return in.render(true)
}

func (in *Inline) render(cell bool) string {
	var b strings.Builder
	runs := mergeLinks(in.runs)
	for _, r := range runs {
		b.WriteString(renderRun(r, cell))
	}
	out := collapseSpaces(b.String())
	if cell {
		return strings.TrimSpace(strings.ReplaceAll(out, "\n", "<br>"))
	}
	return strings.TrimSpace(strings.ReplaceAll(out, "\n", "  \n"))
}

// mergeLinks joins the runs of one link into one run whose text is
// already rendered, so a link whose words change style stays one link.
func mergeLinks(runs []run) []run {
	out := make([]run, 0, len(runs))
	for i := 0; i < len(runs); {
		link := runs[i].style.Link
		if link == "" || runs[i].markup {
			out = append(out, runs[i])
			i++
			continue
		}
		var text strings.Builder
		j := i
		for ; j < len(runs) && runs[j].style.Link == link && !runs[j].markup; j++ {
			s := runs[j].style
			s.Link = ""
			text.WriteString(renderRun(run{text: runs[j].text, style: s}, false))
		}
		out = append(out, run{text: text.String(), style: Style{Link: link}})
		i = j
	}
	return out
}

func renderRun(r run, cell bool) string {
	if r.markup {
		return r.text
	}
	s := r.style
	if s.Link != "" {
		label := strings.TrimSpace(collapseSpaces(r.text))
		lead, trail := edges(r.text)
		if label == "" {
			label = escapeText(s.Link, cell)
		}
		return lead + "[" + label + "](" + linkTarget(s.Link) + ")" + trail
	}
	text := r.text
	if strings.TrimSpace(text) == "" {
		return collapseSpaces(text)
	}
	lead, trail := edges(text)
	core := strings.TrimSpace(text)
	if s.Code {
		core = codeSpan(core)
	} else {
		core = escapeText(core, cell)
	}
	switch {
	case s.Bold && s.Italic:
		core = "***" + core + "***"
	case s.Bold:
		core = "**" + core + "**"
	case s.Italic:
		core = "*" + core + "*"
	}
	if s.Strike {
		core = "~~" + core + "~~"
	}
	return lead + core + trail
}

// edges returns a single space for white space at each end of text, so
// emphasis markers hug the words, as markdown requires.
func edges(text string) (lead, trail string) {
	if startsSpace(text) {
		lead = " "
	}
	if endsSpace(text) {
		trail = " "
	}
	if text == "\n" {
		return "\n", ""
	}
	if strings.HasSuffix(text, "\n") {
		trail = "\n"
	}
	if strings.HasPrefix(text, "\n") {
		lead = "\n"
	}
	return lead, trail
}

// codeSpan wraps text in enough backticks that none inside closes it.
func codeSpan(text string) string {
	longest, cur := 0, 0
	for _, c := range text {
		if c == '`' {
			cur++
			longest = max(longest, cur)
		} else {
			cur = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(text, "`") || strings.HasSuffix(text, "`") {
		return fence + " " + text + " " + fence
	}
	return fence + text + fence
}

// linkTarget writes a URL as a link destination: spaces and parentheses,
// which would end it, percent-encoded.
func linkTarget(u string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(u)
}

// collapse turns every run of white space into one space and trims.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// collapseSpaces turns runs of white space within each line into one
// space and trims each line, keeping the line breaks.
func collapseSpaces(s string) string {
	if !strings.Contains(s, "\n") {
		return spaced(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// spaced collapses white space like collapse but keeps one space at
// either end where there was some, for text that is joined to more.
func spaced(s string) string {
	if s == "" {
		return s
	}
	out := strings.Join(strings.Fields(s), " ")
	if startsSpace(s) {
		out = " " + out
	}
	if endsSpace(s) && out != " " {
		out += " "
	}
	return out
}

func startsSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return s != "" && unicode.IsSpace(r)
}

func endsSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return s != "" && unicode.IsSpace(r)
}
