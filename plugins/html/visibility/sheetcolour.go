package visibility

import (
	"strings"

	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
)

// A page whose whole CSS is in its own <style>s (complete: no linked or
// imported stylesheet) can be read as a browser reads it: its text is
// coloured by the rules of those sheets too, and what lies behind an
// unpainted page is the browser's white. Such a page hides text with a
// rule like ".note { color: #fff }" on a body the sheets, or nothing,
// paint white. A page that links a stylesheet is not read so: the rules
// sift does not fetch may paint any element in between.

// sheetColourRule is a rule of the page's stylesheets that sets the
// colour of elements' text.
type sheetColourRule struct {
	sel       cascadia.Sel
	spec      cascadia.Specificity
	order     int
	important bool
	// value is the colour as the rule wrote it, lower-cased: a var() in
	// it is read for each element (colourOn); colour the same as
	// canonicalColor writes it, when it reads no var().
	value, colour string
}

// colourOn returns the colour rule gives n's text, as canonicalColor
// writes it: its value, each var() the custom property n inherits.
func (r *Rules) colourOn(n *html.Node, rule *sheetColourRule) string {
	if rule.colour != "" {
		return rule.colour
	}
	decls := map[string]string{"color": rule.value}
	resolveVars(decls, func(name string) (string, bool) { return r.inheritedVar(n, name) })
	return canonicalColor(decls["color"])
}

// white is the background of a page nothing paints, as canonicalColor
// writes it.
var white = canonicalColor("white")

// sheetColour returns the colour the stylesheets of a complete page give
// n's text, as canonicalColor writes it, when a rule of theirs matches n
// with a colour some background of the page has; "" otherwise (the
// colour n inherits was its ancestor's to answer for).
func (r *Rules) sheetColour(n *html.Node) string {
	if !r.complete || len(r.sheets) == 0 {
		return ""
	}
	rules := r.colourRules()
	candidate := false
	for i := range rules {
		rule := &rules[i]
		if rule.colour != "" && !r.isBackground(rule.colour) {
			continue // a colour no background of the page has, whatever n is
		}
		if r.match(rule.sel, n) && r.isBackground(r.colourOn(n, rule)) {
			candidate = true
			break
		}
	}
	if !candidate {
		return ""
	}
	return r.cascadedColour(n)
}

// cascadedColour returns the colour the winning rule of a complete page's
// stylesheets gives n's text, or "" when none sets it.
func (r *Rules) cascadedColour(n *html.Node) string {
	if !r.complete {
		return ""
	}
	rules := r.colourRules()
	var best *sheetColourRule
	for i := range rules {
		rule := &rules[i]
		if !r.match(rule.sel, n) {
			continue
		}
		if best == nil || rule.important && !best.important ||
			rule.important == best.important && (best.spec.Less(rule.spec) || best.spec == rule.spec && best.order < rule.order) {
			best = rule
		}
	}
	if best == nil {
		return ""
	}
	return r.colourOn(n, best)
}

// isBackground reports whether c is a colour the page may paint behind
// text: the page's own or a background a rule gives.
func (r *Rules) isBackground(c string) bool {
	if r.backgrounds == nil {
		page := r.pageBackdrop()
		if page == "" {
			page = white
		}
		r.backgrounds = map[string]bool{page: true}
		for _, p := range r.paints() {
			r.backgrounds[p.colour] = true
		}
	}
	return r.backgrounds[c]
}

// colourRules returns the rules of the stylesheets, outside at-rules but
// those that apply on every screen, that set the colour of text, read
// once for the page when first needed.
func (r *Rules) colourRules() []sheetColourRule {
	if r.coloured {
		return r.colourRuleList
	}
	r.coloured = true
	// "color" as a property of its own, not the end of border-color
	colourWord := func(text string, i int, _ string) bool { return i == 0 || !isNameByte(text[i-1]) }
	declaringRules(r.sheets, r.lower, []string{"color"}, colourWord, func(rule declared) {
		value := asciiLower(strings.TrimSpace(rule.raw["color"]))
		if value == "" {
			return
		}
		colour := ""
		if !strings.Contains(value, "var(") {
			colour = canonicalColor(value)
		}
		for _, text := range rule.selectors {
			if sel, ok := parseSelector(text); ok {
				r.colourRuleList = append(r.colourRuleList, sheetColourRule{sel: sel, spec: sel.Specificity(), order: rule.order, important: rule.important, value: value, colour: colour})
			}
		}
	})
	return r.colourRuleList
}
