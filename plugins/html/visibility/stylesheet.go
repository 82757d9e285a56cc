package visibility

import (
	"errors"
	"io"
	"regexp"
	"strings"

	"github.com/siftd/sift/plugins/html/internal/dom"
	cssparse "github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"
)

// Screen-reader text is clipped to a pixel: readers never see it, and
// pages put there what an icon or a layout says to the eye ("current price
// $148.02" beside the price a card shows, "Share on Facebook" for a logo).
// hiddenClasses knows the conventional names (sr-only, visually-hidden);
// pages built with CSS-in-JS or their own themes name theirs as they like
// (css-idkz9h, elementor-screen-only, clipped), and define them in a
// <style> of the page. HiddenClasses reads those definitions.
//
// Only the clip recipe counts: a clip to nothing with a width or height
// of a pixel at most. It hides for good; display:none in a stylesheet
// mostly folds a tab or an accordion that a reader opens (dropping what
// such rules hide cost content), and off-screen offsets also park menus
// that
// slide in. Rules inside @media and other at-rules are left out, unless
// the at-rule applies on every screen (atrules.go).

// HiddenClasses returns the classes that the page's own <style>
// elements define as visually hidden, or nil.
func HiddenClasses(root *html.Node) map[string]bool {
	var classes map[string]bool
	for _, style := range dom.Matching(root, func(n *html.Node) bool { return n.Data == "style" }) {
		for _, text := range styleSheets(style) {
			sheet, _ := unwrapAtRules(text, reachEverywhere)
			classes = clippedClasses(sheet, classes)
		}
	}
	return classes
}

// styleSheets returns the texts of a <style> element as a browser applies
// them: none when its type is not CSS or it stands inside a <template>
// (inert until a script uses it), each inside "@media" when its media
// attribute names some screens ("print": none; the at-rule reading of
// atrules.go decides).
func styleSheets(style *html.Node) []string {
	if t := strings.TrimSpace(asciiLower(dom.Attr(style, "type"))); t != "" && t != "text/css" {
		return nil
	}
	for a := style.Parent; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && a.Data == "template" {
			return nil
		}
	}
	media := strings.TrimSpace(dom.Attr(style, "media"))
	if strings.ContainsAny(media, "{};") {
		return nil // no media query: the sheet applies nowhere
	}
	var texts []string
	for c := style.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.TextNode {
			continue
		}
		if media != "" && !strings.EqualFold(media, "all") {
			texts = append(texts, "@media "+media+"{"+c.Data+"}")
			continue
		}
		texts = append(texts, c.Data)
	}
	return texts
}

// clippedClasses adds to classes those that the stylesheet text defines,
// as a lone class selector outside any at-rule, with the clip recipe.
func clippedClasses(text string, classes map[string]bool) map[string]bool {
	for _, rule := range clipRules(text) {
		classes = addClipped(rule, classes)
	}
	return classes
}

// pixelSize matches a width or height of a pixel at most.
var pixelSize = regexp.MustCompile(`(?i)(width|height)\s*:\s*(1px|0)`)

// clipRules returns the rules of text, outside any at-rule, whose
// declarations name a clip and a pixel size. Stylesheets run to hundreds
// of kilobytes, and parsing whole ones cost several times what finding
// the clip rules first does (BenchmarkPageHiddenClasses); so the rules
// are found by their braces and only they are parsed. A brace inside a
// string or a comment can misplace one rule, which then either keeps its
// text or hides it on the screens its at-rule names.
func clipRules(text string) []string {
	var rules []string
	depth, counted := 0, 0 // braces open at offset counted
	for from := 0; ; {
		i := strings.Index(text[from:], "clip")
		if i < 0 {
			return rules
		}
		i += from
		if before := strings.TrimRight(text[:i], " \t\r\n"); before == "" || !strings.ContainsRune("{;", rune(before[len(before)-1])) {
			from = i + len("clip") // a selector's or a value's "clip", not the property
			continue
		}
		open := strings.LastIndexByte(text[:i], '{')
		shut := strings.IndexByte(text[i:], '}')
		if shut < 0 {
			shut = len(text)
		} else {
			shut += i + 1
		}
		from = shut
		if open < counted || !pixelSize.MatchString(text[open:shut]) {
			continue
		}
		depth += strings.Count(text[counted:open], "{") - strings.Count(text[counted:open], "}")
		counted = open
		if depth == 0 {
			start := strings.LastIndexAny(text[:open], "{};") + 1
			rules = append(rules, text[start:shut])
		}
	}
}

// addClipped parses one rule and adds its lone classes to classes when it
// declares the clip recipe.
func addClipped(rule string, classes map[string]bool) map[string]bool {
	var selected []string // the rule's lone classes
	var decl clipRecipe
	ended := readRule(rule, func(sel []css.Token) { selected = loneClasses(sel) }, decl.add)
	if !ended || selected == nil || !decl.hides() {
		return classes
	}
	if classes == nil {
		classes = map[string]bool{}
	}
	for _, c := range selected {
		classes[c] = true
	}
	return classes
}

// readRule walks one rule: selector gets its selector list, decl each
// declaration's lower-cased name and value, their escapes resolved. It reports whether the rule
// ended, as a rule cut short by the end of the text declares nothing.
func readRule(rule string, selector func([]css.Token), decl func(name, value string)) bool {
	p := css.NewParser(cssparse.NewInputString(rule), false)
	depth := 0 // the rules nested in it are read as rules of their own (nesting.go)
	for {
		gt, _, data := p.Next()
		switch gt {
		case css.ErrorGrammar:
			if errors.Is(p.Err(), io.EOF) {
				return false
			}
		case css.BeginRulesetGrammar, css.BeginAtRuleGrammar:
			if depth++; depth == 1 && gt == css.BeginRulesetGrammar {
				selector(p.Values())
			}
		case css.DeclarationGrammar, css.CustomPropertyGrammar:
			if depth == 1 {
				decl(strings.ToLower(unescapeCSS(string(data))), cssValue(unescapedTokens(p.Values())))
			}
		case css.EndRulesetGrammar, css.EndAtRuleGrammar:
			if depth--; depth <= 0 {
				return depth == 0
			}
		}
	}
}

// loneClasses returns the selectors of a selector list that are one class
// and nothing else (".sr-only", not ".nav .sr-only" nor ".skip:not(:focus)").
func loneClasses(selector []css.Token) []string {
	var classes []string
	for _, part := range splitSelectors(selector) {
		if len(part) == 2 && part[0].TokenType == css.DelimToken && string(part[0].Data) == "." &&
			part[1].TokenType == css.IdentToken {
			classes = append(classes, strings.ToLower(string(part[1].Data)))
		}
	}
	return classes
}

// splitSelectors splits a selector list at its commas, not those inside
// a function's parentheses (":is(.a, .b) .c"), and trims the whitespace
// around each selector.
func splitSelectors(tokens []css.Token) [][]css.Token {
	var parts [][]css.Token
	var part []css.Token
	depth := 0
	for _, t := range tokens {
		switch t.TokenType {
		case css.FunctionToken, css.LeftParenthesisToken:
			depth++
			part = append(part, t)
		case css.RightParenthesisToken:
			depth = max(depth-1, 0)
			part = append(part, t)
		case css.CommaToken:
			if depth > 0 {
				part = append(part, t)
				continue
			}
			parts, part = append(parts, part), nil
		case css.WhitespaceToken:
			if len(part) > 0 {
				part = append(part, t)
			}
		default:
			part = append(part, t)
		}
	}
	parts = append(parts, part)
	for i, p := range parts {
		for len(p) > 0 && p[len(p)-1].TokenType == css.WhitespaceToken {
			p = p[:len(p)-1]
		}
		parts[i] = p
	}
	return parts
}

// cssValue returns a declaration's value lower-cased, without whitespace
// and without !important: "rect(0,0,0,0)", "1px".
func cssValue(tokens []css.Token) string {
	var b strings.Builder
	for _, t := range tokens {
		if t.TokenType != css.WhitespaceToken {
			b.Write(t.Data)
		}
	}
	return strings.TrimSuffix(strings.ToLower(b.String()), "!important")
}

// clipRecipe is what a rule declares of the visually-hidden recipe.
type clipRecipe struct {
	clipped, tiny bool
}

func (r *clipRecipe) add(property, value string) {
	switch property {
	case "clip":
		r.clipped = r.clipped || strings.HasPrefix(value, "rect(0") || strings.HasPrefix(value, "rect(1px")
	case "clip-path":
		r.clipped = r.clipped || value == "inset(50%)" || value == "inset(100%)"
	case "width", "height":
		r.tiny = r.tiny || value == "1px" || value == "0" || value == "0px"
	}
}

// hides reports whether the rule clips its element to nothing.
func (r clipRecipe) hides() bool {
	return r.clipped && r.tiny
}
