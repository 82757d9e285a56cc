package html

import (
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"
)

// A page's own <style> can hide text as an inline style does (a class
// with font-size:0 or opacity:0). Its display:none and visibility:hidden
// are left alone: they fold carousels, tabs and menus that scripts show
// (a product page lost most of its content to one). pageInvisibleRules reads those rules,
// outside any at-rule, whose selectors are simple: an element, a class,
// an id, an element with a class or id, or a descendant chain of those.
// A class or id the stylesheets name again (".fade" and ".fade.show")
// is left out, since another rule may show what this one hides; so is any
// rule the stylesheets' selectors make conditional (":hover", ">").

// hintWords are the properties whose values invisibleHint reads.
var hintWords = []string{"opacity", "font", "font-size", "color", "scale", "text-indent", "height", "content-visibility", "clip-path"}

// invisibleHint reports whether the property named at text[i:] (one of
// hintWords, in lower-cased text) has a value that may make text
// invisible: the places around which rules are parsed, as clipRules does
// for clips. A regular expression over whole stylesheets cost more than
// the rest of the extraction (BenchmarkInvisibleText); finding the words
// and reading a few bytes after each does not. A colour equal to the
// background counts when the rule declares both alike.
func invisibleHint(text string, i int, word string) bool {
	value := text[i+len(word):]
	if word == "scale" {
		value = strings.TrimLeft(value, "xyz3d")
		return strings.HasPrefix(value, "(") && strings.HasPrefix(strings.TrimLeft(value[1:], " "), "0")
	}
	value = strings.TrimLeft(value, " \t\r\n")
	if !strings.HasPrefix(value, ":") {
		return false
	}
	value = strings.TrimLeft(value[1:], " \t\r\n")
	switch word {
	case "opacity", "font", "font-size", "height":
		return strings.HasPrefix(value, "0") || strings.HasPrefix(value, ".")
	case "text-indent":
		n, _, ok := number(strings.TrimLeft(value, "-"))
		return ok && n >= 50
	case "content-visibility":
		return strings.HasPrefix(value, "hidden")
	case "clip-path":
		return true
	case "color":
		if i > 0 && text[i-1] == '-' {
			return false
		}
		if strings.HasPrefix(value, "transparent") || strings.HasPrefix(value, "rgba(") {
			return true
		}
		open := strings.LastIndexAny(text[:i], "{}")
		shut := strings.IndexByte(value, '}')
		if open < 0 || shut < 0 {
			return false
		}
		rule := text[open+1 : len(text)-len(value)+shut]
		if !strings.Contains(rule, "background") {
			return false // most colours, and parsing each rule for them cost
		}
		decls := cssDeclarations(rule)
		return sameColor(decls["color"], background(decls))
	}
	return false
}

// compound is one part of a simple selector: an element name, a class
// and an id, each optional.
type compound struct{ tag, class, id string }

func (c compound) matches(n *html.Node) bool {
	return n.Type == html.ElementNode &&
		(c.tag == "" || n.Data == c.tag) &&
		(c.class == "" || hasClassIn(attr(n, "class"), map[string]bool{c.class: true})) &&
		(c.id == "" || strings.EqualFold(attr(n, "id"), c.id))
}

// selector is a descendant chain of compounds, the subject last.
type selector []compound

// matches reports whether n is the subject of s: it matches the last
// compound, and its ancestors the others in order.
func (s selector) matches(n *html.Node) bool {
	if len(s) == 0 || !s[len(s)-1].matches(n) {
		return false
	}
	rest := s[:len(s)-1]
	for a := n.Parent; a != nil && len(rest) > 0; a = a.Parent {
		if rest[len(rest)-1].matches(a) {
			rest = rest[:len(rest)-1]
		}
	}
	return len(rest) == 0
}

// pageInvisibleRules returns the selectors of the page's own <style>
// rules that make text invisible, or nil.
func pageInvisibleRules(root *html.Node) []selector {
	var sheets []string
	for _, style := range matching(root, func(n *html.Node) bool { return n.Data == "style" }) {
		for c := style.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				sheets = append(sheets, c.Data)
			}
		}
	}
	for i, sheet := range sheets {
		sheets[i] = strings.ToLower(sheet)
	}
	var selectors []selector
	for _, sheet := range sheets {
		for _, rule := range hintedRules(sheet) {
			for _, s := range invisibleSelectors(rule) {
				if !namedElsewhere(s, sheets) {
					selectors = append(selectors, s)
				}
			}
		}
	}
	return selectors
}

// namedElsewhere reports whether the subject's class or id occurs more
// than once in the stylesheets: another rule may show it.
func namedElsewhere(s selector, sheets []string) bool {
	subject := s[len(s)-1]
	for _, name := range []string{"." + subject.class, "#" + subject.id} {
		count := 0
		for _, sheet := range sheets {
			if len(name) > 1 {
				count += countName(sheet, name)
			}
		}
		if count > 1 {
			return true
		}
	}
	return false
}

// countName counts the occurrences of a class or id selector in text,
// whole names only (".fade" is not in ".faded").
func countName(text, name string) int {
	count := 0
	for from := 0; ; {
		i := strings.Index(text[from:], name)
		if i < 0 {
			return count
		}
		end := from + i + len(name)
		if end == len(text) || !isNameByte(text[end]) {
			count++
		}
		from = end
	}
}

func isNameByte(b byte) bool {
	return b == '-' || b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 0x80
}

// hintedRules returns the rules of text (lower-cased), outside any
// at-rule, that hold a declaration invisibleHint points at, found by
// their braces as clipRules finds its rules.
func hintedRules(text string) []string {
	var hints []int
	for _, word := range hintWords {
		for from := 0; ; {
			i := strings.Index(text[from:], word)
			if i < 0 {
				break
			}
			i += from
			if invisibleHint(text, i, word) {
				hints = append(hints, i)
			}
			from = i + len(word)
		}
	}
	slices.Sort(hints)
	var rules []string
	depth, counted := 0, 0 // braces open at offset counted
	shut := 0
	for _, i := range hints {
		if i < shut {
			continue // in the rule just taken
		}
		open := strings.LastIndexByte(text[:i], '{')
		shut = strings.IndexByte(text[i:], '}')
		if shut < 0 {
			shut = len(text)
		} else {
			shut += i + 1
		}
		if open < counted {
			continue
		}
		depth += strings.Count(text[counted:open], "{") - strings.Count(text[counted:open], "}")
		counted = open
		if depth == 0 {
			start := strings.LastIndexAny(text[:open], "{};") + 1
			rules = append(rules, text[start:shut])
		}
	}
	return rules
}

// invisibleSelectors parses one rule and returns its simple selectors when
// its declarations make text invisible.
func invisibleSelectors(rule string) []selector {
	var selected []selector
	decls := map[string]string{}
	ended := readRule(rule, func(sel []css.Token) { selected = simpleSelectors(sel) },
		func(name, value string) { decls[name] = value })
	if !ended || !invisibleDecls(decls) {
		return nil
	}
	return selected
}

// simpleSelectors returns the selectors of a selector list that are
// descendant chains of simple compounds.
func simpleSelectors(tokens []css.Token) []selector {
	var selectors []selector
	for _, part := range splitSelectors(tokens) {
		if s := simpleSelector(part); s != nil {
			selectors = append(selectors, s)
		}
	}
	return selectors
}

// simpleSelector parses one selector, or returns nil when it is not a
// descendant chain of compounds of at most an element, a class and an id.
func simpleSelector(tokens []css.Token) selector {
	var s selector
	var c compound
	empty := true
	flush := func() {
		if !empty {
			s = append(s, c)
		}
		c, empty = compound{}, true
	}
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		switch {
		case t.TokenType == css.WhitespaceToken:
			flush()
		case t.TokenType == css.IdentToken && empty:
			c.tag, empty = strings.ToLower(string(t.Data)), false
		case t.TokenType == css.HashToken && c.id == "":
			c.id, empty = string(t.Data[1:]), false
		case t.TokenType == css.DelimToken && string(t.Data) == "." && c.class == "" &&
			i+1 < len(tokens) && tokens[i+1].TokenType == css.IdentToken:
			c.class, empty = strings.ToLower(string(tokens[i+1].Data)), false
			i++
		default:
			return nil
		}
	}
	flush()
	return s
}
