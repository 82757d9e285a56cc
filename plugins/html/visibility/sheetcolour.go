package visibility

import (
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/siftd/sift/plugins/html/internal/dom"
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
	sel cascadia.Sel
	precedence
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

// textColourOf returns the colour declarations give text:
// -webkit-text-fill-color, which paints the letters over color in every
// engine, else color; "" for neither.
func textColourOf(d map[string]string) string {
	if fill := strings.TrimSpace(d["-webkit-text-fill-color"]); fill != "" && fill != "currentcolor" {
		return fill
	}
	return strings.TrimSpace(d["color"])
}

// white is the background of a page nothing paints, as canonicalColor
// writes it.
var white = canonicalColor("white")

// textColour returns the colour of n's text as canonicalColor writes it,
// or "": on a complete page, an !important rule of the stylesheets over a
// style that is not; else n's style or <font color>; else the
// stylesheets' (sheetColour).
func (r *Rules) textColour(n *html.Node) string {
	own, important := r.ownColor(n)
	if own != "" && !important && r.complete {
		if c := r.cascaded(n, true); c != "" {
			return c
		}
	}
	if own != "" {
		return own
	}
	return r.sheetColour(n)
}

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
	r.colourIndex.each(n, func(i int) bool {
		rule := &rules[i]
		if rule.colour != "" && !r.isBackground(rule.colour) {
			return true // a colour no background of the page has, whatever n is
		}
		candidate = r.match(rule.sel, n) && r.isBackground(r.colourOn(n, rule))
		return !candidate
	})
	if !candidate {
		return ""
	}
	return r.cascadedColour(n)
}

// cascadedColour returns the colour the winning rule of a complete page's
// stylesheets gives n's text, or "" when none sets it.
func (r *Rules) cascadedColour(n *html.Node) string { return r.cascaded(n, false) }

// cascaded is cascadedColour, among the !important rules alone when
// importantOnly.
func (r *Rules) cascaded(n *html.Node, importantOnly bool) string {
	if !r.complete {
		return ""
	}
	rules := r.colourRules()
	var best *sheetColourRule
	r.colourIndex.each(n, func(i int) bool {
		rule := &rules[i]
		if (!importantOnly || rule.important) && (best == nil || rule.outranks(best.precedence)) && r.match(rule.sel, n) {
			best = rule
		}
		return true
	})
	if best == nil {
		return ""
	}
	return r.colourOn(n, best)
}

// isBackground reports whether c is a colour the page may paint behind
// text: the page's own, a background a rule gives, or one a style or a
// bgcolor attribute declares.
func (r *Rules) isBackground(c string) bool {
	if r.backgrounds == nil {
		page := r.pageBackdrop()
		if page == "" && !r.darkScheme {
			page = white
		}
		r.backgrounds = map[string]bool{page: true}
		paints := r.paints()
		htmlElement := r.root
		if found := dom.Matching(r.root, func(n *html.Node) bool { return n.Data == "html" }); len(found) > 0 {
			htmlElement = found[0]
		}
		for i := range paints {
			r.backgrounds[paints[i].colour] = true
			if paints[i].value != "" {
				// a custom property's colour, as the page's root sets it
				r.backgrounds[r.paintOn(htmlElement, &paints[i])] = true
			}
		}
		for e := range r.root.Descendants() {
			if e.Type == html.ElementNode && (dom.HasAttr(e, "bgcolor") || strings.Contains(asciiLower(dom.Attr(e, "style")), "background")) {
				r.backgrounds[r.ownBackground(e)] = true
			}
		}
		delete(r.backgrounds, "")
		delete(r.backgrounds, unknownPaint)
	}
	if known, ok := r.backgrounds[c]; ok {
		return known
	}
	// Not a background itself: one when a background is alike, which is
	// remembered, as is its absence.
	near := false
	for b, painted := range r.backgrounds {
		if painted && alike(b, c) {
			near = true
			break
		}
	}
	r.backgrounds[c] = near
	return near
}

// colourRules returns the rules of the stylesheets, outside at-rules but
// those that apply on every screen, that set the colour of text, read
// once for the page when first needed.
func (r *Rules) colourRules() []sheetColourRule {
	if r.coloured {
		return r.colourRuleList
	}
	r.coloured = true
	declaringRules(r.sheets, r.lower, []string{"color", "-webkit-text-fill-color"}, startsProperty, func(rule declared) {
		value := textColourOf(rule.spaced())
		if value == "" {
			return
		}
		colour := ""
		if !strings.Contains(value, "var(") {
			colour = canonicalColor(value)
		}
		for k, text := range rule.selectors {
			if sel, ok := parseSelector(text); ok {
				r.colourIndex.add(len(r.colourRuleList), text)
				r.colourRuleList = append(r.colourRuleList, sheetColourRule{sel: sel, precedence: r.precedenceOf(rule, k, sel), value: value, colour: colour})
			}
		}
	})
	return r.colourRuleList
}
