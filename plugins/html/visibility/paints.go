package visibility

import (
	"regexp"
	"slices"
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/siftd/sift/plugins/html/internal/dom"
	"golang.org/x/net/html"
)

// What the page's stylesheets paint around text: a background, a colour
// or another (a picture, a gradient, a custom property's), or an effect
// through which a text coloured as what lies behind it still shows (a
// shadow or a stroke around its letters, a blend, a filter, a border
// image). backdrop.go compares colours with the first; any of them on an
// element between a text and its backdrop means sift does not know what
// the text lies on, and believes it seen.

// uaPainted are the elements a browser paints a background of its own.
var uaPainted = map[string]bool{"mark": true, "button": true, "input": true, "select": true, "textarea": true}

// unknownPaint stands for a background whose colour sift does not know:
// it equals no colour.
const unknownPaint = "?"

// effectProperties are the properties besides a background by which a
// page paints over or around an element's text.
var effectProperties = []string{"box-shadow", "border-image", "text-shadow", "-webkit-text-stroke", "text-stroke", "mix-blend-mode", "filter", "backdrop-filter"}

// paintProperties are the properties a rule or a style paints with.
var paintProperties = append([]string{"background"}, effectProperties...)

// sheetPaint is a rule of the page's stylesheets that paints elements.
type sheetPaint struct {
	sel cascadia.Sel
	precedence
	// colour is the background's, as canonicalColor writes it, or
	// unknownPaint; "" for a rule that paints with an effect alone.
	colour string
	// value is the background as the rule wrote it, when it reads a
	// var(): its colour is read for each element (paintOn).
	value string
	// effect is set when the rule paints with an effect too.
	effect bool
}

// paintOn returns the background colour p gives n: its colour, or the one
// its var() has on n (unknownPaint when that is no colour).
func (r *Rules) paintOn(n *html.Node, p *sheetPaint) string {
	if p.value == "" {
		return p.colour
	}
	decls := map[string]string{"background": p.value}
	resolveVars(decls, func(name string) (string, bool) { return r.inheritedVar(n, name) })
	if c := decls["background"]; !noBackground(c) {
		return canonicalColor(c)
	}
	return unknownPaint
}

// paints returns the rules of the stylesheets, outside at-rules but those
// that apply on every screen, that paint elements, read once for the page
// when first needed.
func (r *Rules) paints() []sheetPaint {
	if r.painted {
		return r.paintRules
	}
	r.painted = true
	read := map[int]bool{}
	r.readPaints(r.sheets, r.lower, read, false)
	// Rules in at-rules that hold on some screens only paint there: a
	// text on them may be seen, though on what sift does not know.
	sheets, lower := r.somewhereSheets()
	if !slices.Equal(sheets, r.sheets) { // else no at-rule holds on some screens only
		r.readPaints(sheets, lower, read, true)
	}
	return r.paintRules
}

// readPaints reads the rules of sheets that paint into paintRules,
// passing over those read already (by where each ends), their colour
// unknown when somewhere.
func (r *Rules) readPaints(sheets, lower []string, read map[int]bool, somewhere bool) {
	declaringRules(sheets, lower, paintProperties, startsProperty, func(rule declared) {
		end := rule.order + len(rule.text)
		if read[end] {
			return
		}
		read[end] = true
		colour, paints := ruleBackground(rule)
		effect := hasEffect(rule.raw)
		if !paints && !effect {
			return
		}
		if rule.unexpanded && paints {
			// A :is() or :where() sift cannot write out may paint the page
			// (Tailwind's dark variant, :where(.dark, .dark *)): what its
			// text lies on is not known.
			r.complete = false
		}
		value := ""
		if colour == unknownPaint && strings.Contains(background(rule.raw), "var(") {
			value = background(rule.spaced())
		}
		if somewhere && paints {
			colour, value = unknownPaint, ""
		}
		for k, text := range rule.selectors {
			c := colour
			sel, ok := parseSelector(text)
			if !ok {
				// A ::before or ::after painted is laid over its element.
				stripped, pseudo := withoutPseudoElement(text)
				if sel, ok = parseSelector(stripped); !pseudo || !ok || !paints {
					continue
				}
				c = unknownPaint
			}
			r.paintIndex.add(len(r.paintRules), text)
			r.paintRules = append(r.paintRules, sheetPaint{sel: sel, precedence: r.precedenceOf(rule, k, sel), colour: c, value: value, effect: effect})
		}
	})
}

// pseudoElement matches a ::before or ::after (or the old :before,
// :after) at a selector's end.
var pseudoElement = regexp.MustCompile(`(?i)::?(before|after)\s*$`)

// withoutPseudoElement returns a selector without its ::before or ::after,
// and whether it had one.
func withoutPseudoElement(text string) (string, bool) {
	loc := pseudoElement.FindStringIndex(text)
	if loc == nil {
		return text, false
	}
	return strings.TrimSpace(text[:loc[0]]), true
}

// ruleBackground returns the background colour a rule paints, as
// canonicalColor writes it (unknownPaint for a picture, a gradient or a
// custom property the rule does not set), and whether it paints one.
func ruleBackground(rule declared) (string, bool) {
	if strings.Contains(background(rule.raw), "var(") {
		// read for each element (paintOn): its fallback, which the rule's
		// own reading took, stands only where the property is not set
		return unknownPaint, true
	}
	if c := background(rule.decls); !noBackground(c) {
		return canonicalColor(c), true
	}
	// A var() the rule does not set was read as its fallback, often none.
	if c := background(rule.raw); !noBackground(c) || !noBackground(rule.raw["background-image"]) {
		return unknownPaint, true
	}
	return "", false
}

// hasEffect reports whether declarations paint with an effect of
// effectProperties.
func hasEffect(d map[string]string) bool {
	for _, p := range effectProperties {
		if v, ok := d[p]; ok && !noEffect(v) {
			return true
		}
	}
	return false
}

// noEffect reports whether an effect property's value paints nothing.
func noEffect(v string) bool {
	switch strings.TrimSpace(v) {
	case "", "none", "normal", "initial", "unset", "inherit", "0":
		return true
	}
	return false
}

// ownEffect reports whether n's inline style paints with an effect.
func (r *Rules) ownEffect(n *html.Node) bool {
	style := asciiLower(dom.Attr(n, "style"))
	for _, p := range effectProperties {
		if strings.Contains(style, p) {
			return hasEffect(Declarations(style))
		}
	}
	return false
}

// effectBySheet reports whether a rule of the stylesheets paints n with an
// effect.
func (r *Rules) effectBySheet(n *html.Node) bool {
	return r.paintsMatching(n, func(p *sheetPaint) bool { return p.effect })
}

// paintedBySheet reports whether a rule of the stylesheets paints n.
func (r *Rules) paintedBySheet(n *html.Node) bool {
	return r.paintsMatching(n, func(*sheetPaint) bool { return true })
}

// paintsMatching reports whether a rule of the stylesheets that is wanted
// paints n.
func (r *Rules) paintsMatching(n *html.Node, wanted func(*sheetPaint) bool) bool {
	paints, found := r.paints(), false
	r.paintIndex.each(n, func(i int) bool {
		found = wanted(&paints[i]) && r.match(paints[i].sel, n)
		return !found
	})
	return found
}

// pageBackdrop returns the background colour the stylesheets give the
// page's <body>, else its <html> (unknownPaint for one sift cannot
// tell), or "": the rule that wins the cascade for the element among
// those that paint a background, whatever its selector (".dark", ":root",
// "[data-theme=dark] body").
func (r *Rules) pageBackdrop() string {
	if r.pageRead {
		return r.pageColour
	}
	r.pageRead = true
	for _, tag := range []string{"body", "html"} {
		for _, el := range dom.Matching(r.root, func(n *html.Node) bool { return n.Data == tag }) {
			if c := r.winningBackground(el); c != "" {
				r.pageColour = c
				return c
			}
		}
	}
	return ""
}

// winningBackground returns the background colour of the rule that wins
// the cascade for n among those that paint one, or "".
func (r *Rules) winningBackground(n *html.Node) string {
	c, _ := r.winningPaint(n)
	return c
}

// winningPaint is winningBackground, and whether the winning rule is
// !important.
func (r *Rules) winningPaint(n *html.Node) (string, bool) {
	var best *sheetPaint
	paints := r.paints()
	r.paintIndex.each(n, func(i int) bool {
		if p := &paints[i]; p.colour != "" && (best == nil || p.outranks(best.precedence)) && r.match(p.sel, n) {
			best = p
		}
		return true
	})
	if best == nil {
		return "", false
	}
	return r.paintOn(n, best), best.important
}

// elementBackground returns n's own background: its style's or bgcolor's,
// but on a complete page an !important rule's over it, and the winning
// rule's where it has none; "" for none.
func (r *Rules) elementBackground(n *html.Node) string {
	own := r.ownBackground(n)
	if own == "" && uaPainted[n.Data] {
		own = unknownPaint // the browser's own: a mark's yellow, a button's grey
	}
	if !r.complete {
		return own
	}
	sheet, important := r.winningPaint(n)
	if own == "" || important && sheet != "" {
		return sheet
	}
	return own
}
