package html

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A code block's fence names its language, as the page names it: in a
// class of the block, of its <code> or of the elements just around it
// (language-*, lang-*, highlight-*, GitHub's highlight-source-*,
// SyntaxHighlighter's brush:, highlight.js's and Pandoc's bare names) or
// in a data-lang attribute. go-trafilatura keeps a block's text but no
// attribute, so flattenPreformatted puts the language, between
// private-use marks, ahead of the block's text, and restoreCodeLanguages
// takes it out again and names it in a language-* class, from which the
// markdown converter writes the fence's info string.

const (
	langOpen  = '\uE007'
	langClose = '\uE008'
	// maxAncestors is how far above a block its language is looked for.
	maxAncestors = 3
)

var (
	// codeLanguageName is what a fence's info string may hold.
	codeLanguageName = regexp.MustCompile(`^[a-z0-9][a-z0-9_+#.-]{0,29}$`)
	brushClass       = regexp.MustCompile(`brush:\s*([A-Za-z0-9_+#.-]+)`)
)

// notLanguages are the names highlighters give a block they leave plain.
var notLanguages = map[string]bool{
	"default": true, "none": true, "nohighlight": true, "no-highlight": true,
	"undefined": true, "null": true, "plain": true, "highlight": true, "source": true,
}

// bareLanguages are languages highlight.js and Pandoc name by a bare
// class ("hljs python", "sourceCode python"), and GitHub by a lang
// attribute, which elsewhere is a natural language's: only these are
// taken from there.
var bareLanguages = map[string]bool{
	"bash": true, "c": true, "clojure": true, "cpp": true, "cs": true, "csharp": true, "css": true,
	"dart": true, "diff": true, "dockerfile": true, "elixir": true, "erlang": true, "go": true,
	"golang": true, "graphql": true, "haskell": true, "html": true, "ini": true, "java": true,
	"javascript": true, "js": true, "json": true, "jsx": true, "kotlin": true, "latex": true,
	"lua": true, "makefile": true, "markdown": true, "matlab": true, "nginx": true, "objectivec": true,
	"ocaml": true, "perl": true, "php": true, "powershell": true, "python": true, "py": true, "r": true,
	"ruby": true, "rust": true, "scala": true, "scss": true, "shell": true, "sh": true, "sql": true,
	"swift": true, "toml": true, "ts": true, "tsx": true, "typescript": true, "vb": true, "xml": true,
	"yaml": true, "yml": true, "zsh": true, "console": true, "text": true, "plaintext": true,
}

// codeLanguage is the language the page names for the block pre, or "".
func codeLanguage(pre *html.Node) string {
	// The block's <code>: its one child, or the first <code> among its
	// children (mdBook writes its buttons ahead of it).
	code := onlyElementChild(pre)
	if code == nil || code.DataAtom != atom.Code {
		code = nil
		for c := pre.FirstChild; c != nil && code == nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == atom.Code {
				code = c
			}
		}
	}
	if code != nil {
		if lang := languageOf(code, true); lang != "" {
			return lang
		}
	}
	n := pre
	for i := 0; i <= maxAncestors && n != nil && n.Type == html.ElementNode; i++ {
		if lang := languageOf(n, i == 0); lang != "" {
			return lang
		}
		n = n.Parent
	}
	return ""
}

// languageOf is the language n's attributes name. own is set for the
// block and its <code>, whose bare class names and lang attribute count.
func languageOf(n *html.Node, own bool) string {
	for _, key := range []string{"data-lang", "data-language"} {
		if lang := languageName(attr(n, key)); lang != "" {
			return lang
		}
	}
	class := attr(n, "class")
	if m := brushClass.FindStringSubmatch(class); m != nil {
		if lang := languageName(m[1]); lang != "" {
			return lang
		}
	}
	for _, c := range strings.Fields(class) {
		if lang := classLanguage(strings.ToLower(c)); lang != "" {
			return lang
		}
	}
	if !own {
		return ""
	}
	if lang := strings.ToLower(strings.TrimSpace(attr(n, "lang"))); bareLanguages[lang] {
		return lang
	}
	if classes := strings.Fields(strings.ToLower(class)); len(classes) > 1 &&
		(containsString(classes, "hljs") || containsString(classes, "sourcecode")) {
		for _, c := range classes {
			if bareLanguages[c] {
				return c
			}
		}
	}
	return ""
}

// classLanguage is the language one class names, or "".
func classLanguage(c string) string {
	for _, prefix := range []string{"language-", "lang-", "highlight-source-", "highlight-text-", "highlight-"} {
		if rest, ok := strings.CutPrefix(c, prefix); ok {
			// GitHub's scopes: highlight-text-html-basic is HTML.
			rest = strings.TrimSuffix(rest, "-basic")
			return languageName(rest)
		}
	}
	return ""
}

// languageName is name as a fence's info string, or "" when it names no
// language.
func languageName(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if notLanguages[name] || !codeLanguageName.MatchString(name) {
		return ""
	}
	return name
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// languageMark is the mark flattenPreformatted puts ahead of a block's
// text to carry its language.
func languageMark(lang string) string {
	if lang == "" {
		return ""
	}
	return string(langOpen) + lang + string(langClose)
}

// blockMark is the mark flattenPreformatted puts ahead of a block's text:
// its language's, or for a block of one line without one an empty mark.
// go-trafilatura writes <pre><code> as a <code>, which restoreCodeBlocks
// makes a block again only when it holds a line break: a one-line block
// came out as an inline code span, a command an agent copies from a fence
// run into the paragraph. The mark says it was a block.
func blockMark(lang string, oneLine bool) string {
	if lang == "" && oneLine {
		return string(langOpen) + string(langClose)
	}
	return languageMark(lang)
}

// restoreCodeLanguages takes the language marks out of the text under n
// and names each in a language-* class of its block. The marked texts are
// found first: lifting a block out of its paragraph moves it, and a walk
// of the tree as it changes skipped every block after the first lifted.
func restoreCodeLanguages(n *html.Node) {
	var marked []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode && strings.ContainsRune(c.Data, langOpen):
				marked = append(marked, c)
			case c.Type == html.ElementNode:
				walk(c)
			}
		}
	}
	walk(n)
	for _, c := range marked {
		lang := takeLanguageMark(c)
		switch pre := enclosingPre(c); {
		case pre != nil && lang != "":
			pre.Attr = append(withoutAttr(pre.Attr, "class"), html.Attribute{Key: "class", Val: "language-" + lang})
			if pre.Parent != nil && pre.Parent.Type == html.ElementNode && pre.Parent.Data == "p" {
				liftCodeBlock(pre, lang)
			}
		case pre == nil && c.Parent != nil && c.Parent.Data == "code":
			// A block go-trafilatura wrote as a <code> (blockMark).
			liftCodeBlock(c.Parent, lang)
		}
	}
}

// liftCodeBlock makes code, a block go-trafilatura put inside a paragraph
// (a library reference's example in a <dd>, which came out as one code
// span, or a <pre> restoreCodeBlocks made of one), a block again: a <pre>
// after the paragraph, and what followed the code in the paragraph a
// paragraph after it.
func liftCodeBlock(code *html.Node, lang string) {
	pre := code
	if code.Data != "pre" {
		pre = element(atom.Pre)
		if lang != "" {
			pre.Attr = []html.Attribute{{Key: "class", Val: "language-" + lang}}
		}
	}
	p := code.Parent
	if p.Type != html.ElementNode || p.Data != "p" || p.Parent == nil {
		if pre != code {
			p.InsertBefore(pre, code)
			p.RemoveChild(code)
			pre.AppendChild(code)
		}
		return
	}
	rest := element(atom.P)
	for k := code.NextSibling; k != nil; k = code.NextSibling {
		p.RemoveChild(k)
		rest.AppendChild(k)
	}
	p.RemoveChild(code)
	if pre != code {
		pre.AppendChild(code)
	}
	p.Parent.InsertBefore(pre, p.NextSibling)
	if strings.TrimFunc(textOf(rest), isBlank) != "" {
		p.Parent.InsertBefore(rest, pre.NextSibling)
	}
	if strings.TrimFunc(textOf(p), isBlank) == "" && p.FirstChild == nil {
		p.Parent.RemoveChild(p)
	}
}

// takeLanguageMark removes the first language mark from t's text, and any
// other, and returns the language it carried.
func takeLanguageMark(t *html.Node) string {
	start := strings.IndexRune(t.Data, langOpen)
	end := strings.IndexRune(t.Data[start:], langClose)
	lang := ""
	if end > 0 {
		lang = languageName(t.Data[start+len(string(langOpen)) : start+end])
		t.Data = t.Data[:start] + t.Data[start+end+len(string(langClose)):]
	}
	t.Data = strings.Map(func(r rune) rune {
		if r == langOpen || r == langClose {
			return -1
		}
		return r
	}, t.Data)
	return lang
}

// enclosingPre is the <pre> t's text is in, if it is one or two elements
// deep in it.
func enclosingPre(t *html.Node) *html.Node {
	p := t.Parent
	for i := 0; i < 3 && p != nil; i++ {
		if p.Type == html.ElementNode && p.Data == "pre" {
			return p
		}
		p = p.Parent
	}
	return nil
}

// nameCodeLanguages names each block's language under n in a language-*
// class of the block, for a tree the markdown is made from directly (the
// whole page), where go-trafilatura takes no attribute away.
func nameCodeLanguages(n *html.Node) {
	walkElements(n, func(c *html.Node) bool {
		if c.DataAtom != atom.Pre {
			return true
		}
		if lang := codeLanguage(c); lang != "" {
			c.Attr = append(withoutAttr(c.Attr, "class"), html.Attribute{Key: "class", Val: "language-" + lang})
			if code := onlyElementChild(c); code != nil && code.DataAtom == atom.Code {
				code.Attr = withoutAttr(code.Attr, "class")
			}
		}
		return false
	})
}

// unwrapLineNumberTables replaces each table that sets a code block
// beside its line numbers (Chroma's and Pygments' lntable and
// highlighttable: one row, a cell whose <pre> holds only numbers, and a
// cell holding the code's <pre>) by the code's cell's content.
// go-trafilatura dropped such tables, or kept the numbers as a block of
// their own, and the block lost its language with them.
func unwrapLineNumberTables(root *html.Node) {
	var tables []*html.Node
	walkElements(root, func(n *html.Node) bool {
		if n.DataAtom == atom.Table {
			tables = append(tables, n)
			return false
		}
		return true
	})
	for _, t := range tables {
		rows := rowsOf(t)
		if len(rows) != 1 {
			continue
		}
		cells := cellsOf(rows[0])
		if len(cells) != 2 || !onlyNumbers(cells[0]) || findElement(cells[1], func(c *html.Node) bool { return c.DataAtom == atom.Pre }) == nil {
			continue
		}
		for k := cells[1].FirstChild; k != nil; k = cells[1].FirstChild {
			cells[1].RemoveChild(k)
			t.Parent.InsertBefore(k, t)
		}
		t.Parent.RemoveChild(t)
	}
}

// onlyNumbers reports whether cell holds a <pre> whose text is line
// numbers alone.
func onlyNumbers(cell *html.Node) bool {
	pre := findElement(cell, func(c *html.Node) bool { return c.DataAtom == atom.Pre })
	if pre == nil {
		return false
	}
	text := strings.TrimSpace(textOf(pre))
	return text != "" && strings.Trim(text, "0123456789 \t\r\n") == ""
}
