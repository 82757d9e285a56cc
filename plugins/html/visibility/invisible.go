package visibility

import (
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/siftd/sift/plugins/html/internal/dom"
	cssparse "github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"
)

// Besides display and visibility, CSS makes text invisible in many ways a
// page can use to hide instructions for agents: text too small to see,
// fully transparent, coloured as its background, clipped or scaled to
// nothing, indented far off-screen, boxed to no height, or skipped by
// content-visibility. The same declarations also animate content in
// (opacity:0 before a fade) and fold panels a reader opens, so what they
// hide is removed only when it is less than what stays visible
// (InvisibleNodes); panels named by a visible control are opened as ever.

// Declarations parses a declaration list (an inline style, or a rule's
// body) into its properties, lower-cased, each with its value lower-cased,
// without whitespace and without !important. A later declaration of a
// property wins, as in a browser.
func Declarations(list string) map[string]string {
	decls := declaredAs(list)
	resolveVars(decls, nil)
	return decls
}

// declaredAs is Declarations with each var() as written.
func declaredAs(list string) map[string]string { return parseDeclarations(list, cssValue) }

// parseDeclarations parses a declaration list into its properties,
// lower-cased, each with its value as value writes its tokens.
func parseDeclarations(list string, value func([]css.Token) string) map[string]string {
	p := css.NewParser(cssparse.NewInputString(list), true)
	decls := map[string]string{}
	for {
		gt, _, data := p.Next()
		switch gt {
		case css.ErrorGrammar:
			if errors.Is(p.Err(), io.EOF) {
				return decls
			}
		case css.DeclarationGrammar, css.CustomPropertyGrammar:
			decls[strings.ToLower(unescapeCSS(string(data)))] = value(unescapedTokens(p.Values()))
		}
	}
}

// resolveVars writes each var(--name) or var(--name,fallback) in decls'
// values as the custom property the same declarations set, else the one
// inherited says the element inherits (nil: none), else its fallback:
// ".n { --h: none; display: var(--h) }" hid an instruction sift read, and
// so did ":root { --h: none }" before ".n { display: var(--h) }"
// (inherit.go). Values are as cssValue writes them, without spaces.
func resolveVars(decls map[string]string, inherited func(name string) (string, bool)) {
	lookup := func(ref string) (string, bool) {
		if v, ok := decls[ref]; ok {
			return v, v != invalidVar
		}
		if inherited != nil {
			return inherited(ref)
		}
		return "", false
	}
	invalid := false
	for name, value := range decls {
		if !strings.Contains(value, "var(") {
			continue
		}
		budget := maxVarSubstitutions
		seen := map[string]bool{name: true}
		v, ok := substituteVars(value, lookup, seen, &budget)
		if !ok {
			// Invalid, as a browser finds it: a custom property that reads
			// it takes its fallback, a property is not set.
			v, invalid = invalidVar, true
		}
		decls[name] = v
	}
	if invalid {
		for name, v := range decls {
			if v == invalidVar {
				decls[name] = ""
			}
		}
	}
}

// invalidVar marks a declaration resolveVars found invalid while it
// resolves the others.
const invalidVar = "\x00invalid"

// maxVarSubstitutions bounds the var() one value is written out with, and
// maxVarLength the length it may grow to: a custom property naming the
// one before it twice, forty deep, is 2^40 long written out. Past either,
// the value is invalid.
const (
	maxVarSubstitutions = 256
	maxVarLength        = 4096
)

// substituteVars writes each var(--name) or var(--name, fallback) in value
// as the custom property lookup finds, itself written out, else as its
// fallback: a property unset, naming itself through others (seen holds
// those being written out), or invalid takes the fallback, and without
// one the whole value is invalid (ok false).
func substituteVars(value string, lookup func(string) (string, bool), seen map[string]bool, budget *int) (string, bool) {
	var b strings.Builder
	for {
		i := strings.Index(value, "var(")
		if i < 0 {
			b.WriteString(value)
			return b.String(), b.Len() <= maxVarLength
		}
		end := closingParen(value, i+len("var("))
		if *budget--; end < 0 || *budget < 0 {
			return "", false
		}
		b.WriteString(value[:i])
		ref, fallback, hasFallback := strings.Cut(value[i+len("var("):end], ",")
		ref = strings.TrimSpace(ref)
		sub, ok := "", false
		if raw, found := lookup(ref); found && !seen[ref] {
			seen[ref] = true
			sub, ok = substituteVars(customValue(raw), lookup, seen, budget)
			delete(seen, ref)
		}
		if !ok && hasFallback {
			sub, ok = substituteVars(strings.TrimSpace(fallback), lookup, seen, budget)
		}
		if !ok {
			return "", false
		}
		if b.WriteString(sub); b.Len() > maxVarLength {
			return "", false
		}
		value = value[end+1:]
	}
}

// closingParen returns the index of the parenthesis that closes the one
// open before from in s, or -1.
func closingParen(s string, from int) int {
	depth := 1
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// customValue is a custom property's value as the declarations that read
// it take it: without comments, blanks and !important, which the parser
// leaves in a custom property's raw text (":root { --h: none !important }"
// read as "none!important" hid nothing).
func customValue(raw string) string {
	raw = strings.TrimSpace(withoutComments(raw))
	if i := strings.LastIndexByte(raw, '!'); i >= 0 && strings.EqualFold(strings.TrimSpace(raw[i+1:]), "important") {
		raw = strings.TrimSpace(raw[:i])
	}
	return raw
}

// styleHints are the properties invisibleDecls reads: a style naming none
// of them is not parsed.
var styleHints = []string{"opacity", "font", "color", "text-fill", "clip", "transform", "scale", "translate", "text-indent", "height", "content-visibility", "position"}

// InvisibleStyle reports whether an inline style makes its element's text
// invisible in one of the ways invisibleDecls knows.
func InvisibleStyle(style string) bool {
	lower := strings.ToLower(style)
	for _, hint := range styleHints {
		if strings.Contains(lower, hint) {
			return invisibleDecls(Declarations(style))
		}
	}
	return false
}

// invisibleDecls reports whether declarations make their element's text
// invisible.
func invisibleDecls(d map[string]string) bool {
	return tinyFont(d["font-size"]) || tinyFont(d["font"]) || zeroOpacity(d["opacity"]) && !animated(d) ||
		transparentColor(textColourOf(d)) || sameColor(textColourOf(d), background(d)) ||
		clippedAway(d["clip"], d["clip-path"]) || scaledAway(d["transform"]) || IsZero(d["scale"]) ||
		filteredAway(d["filter"]) || translatedAway(d["transform"], d["translate"]) || edgeOn.MatchString(d["transform"]) ||
		placedAway(d) ||
		indentedAway(d["text-indent"]) || d["content-visibility"] == "hidden" ||
		OverflowHidden(d) && (IsZero(d["height"]) || IsZero(d["max-height"]) || IsZero(d["line-height"]))
}

// animated reports whether declarations move or animate their element:
// opacity:0 beside them is the first frame of a fade in (a scroll reveal
// writes "transform: matrix(1, 0, 0, 1, 0, 30); opacity: 0" on every
// section of a page), not a hiding place.
func animated(d map[string]string) bool {
	for _, p := range []string{"transform", "translate", "transition", "animation", "animation-name", "will-change"} {
		if v := d[p]; v != "" && v != "none" {
			return true
		}
	}
	return false
}

// number splits a CSS dimension into its number and unit ("-9999px" →
// -9999, "px"); ok is false when it is not one.
func number(value string) (n float64, unit string, ok bool) {
	i := 0
	for i < len(value) && strings.IndexByte("+-.0123456789", value[i]) >= 0 {
		i++
	}
	n, err := strconv.ParseFloat(value[:i], 64)
	if err != nil {
		return 0, "", false
	}
	return n, value[i:], true
}

// IsZero reports whether a length is zero, in any unit ("0", "0px", "0em",
// "0%", "0.0").
func IsZero(value string) bool {
	n, _, ok := number(value)
	return ok && n == 0
}

// tinyFont reports whether a font size is under a pixel (a root em taken
// as 16 pixels); the font shorthand starts with its size ("0/0 a").
func tinyFont(value string) bool {
	n, unit, ok := number(value)
	if !ok {
		return false
	}
	switch unit {
	case "", "px":
		return n < 1
	case "pt":
		return n < 0.75
	case "em", "rem", "ex", "ch":
		return n < 1.0/16
	case "%":
		return n < 100.0/16
	}
	return n == 0
}

// zeroOpacity reports whether an opacity is nothing ("0", "0.0", "0%").
func zeroOpacity(value string) bool {
	n, unit, ok := number(value)
	return ok && n <= 0.01 && (unit == "" || unit == "%" && n <= 1)
}

// transparentColor reports whether a colour is fully transparent: its
// alpha is nothing, after a comma ("rgba(0,0,0,0)") or a slash
// ("hsl(0 0% 0% / 0)", which cssValue writes "hsl(00%0%/0)").
func transparentColor(value string) bool {
	if value == "transparent" {
		return true
	}
	if open := strings.IndexByte(value, '('); open > 0 && strings.HasSuffix(value, ")") {
		args := value[open+1 : len(value)-1]
		if _, alpha, ok := strings.Cut(args, "/"); ok {
			return zeroOpacity(alpha)
		}
		parts := strings.Split(args, ",")
		return len(parts) == 4 && zeroOpacity(parts[3])
	}
	if hex, ok := strings.CutPrefix(value, "#"); ok {
		return len(hex) == 4 && hex[3] == '0' || len(hex) == 8 && hex[6:] == "00"
	}
	return false
}

// background returns an element's declared background colour, or "".
func background(d map[string]string) string {
	if c := d["background-color"]; c != "" {
		return c
	}
	return d["background"]
}

// sameColor reports whether text is coloured as its own background: both
// declared, and alike once written alike ("#FFF", "#ffffff", "white",
// "rgb(255,255,255)", "#fefefe").
func sameColor(text, back string) bool {
	if text == "" || back == "" {
		return false
	}
	t, b := canonicalColor(text), canonicalColor(back)
	return t != "" && alike(t, b)
}

// clippedAway reports whether clip or clip-path leave nothing to see.
func clippedAway(clip, clipPath string) bool {
	if args, ok := strings.CutPrefix(clip, "rect("); ok {
		return allZero(strings.TrimSuffix(args, ")"))
	}
	for _, shape := range []string{"inset(", "circle(", "ellipse(", "polygon("} {
		args, ok := strings.CutPrefix(clipPath, shape)
		if !ok {
			continue
		}
		args = strings.TrimSuffix(args, ")")
		if shape == "inset(" {
			n, unit, ok := number(args)
			return ok && unit == "%" && n >= 50
		}
		return allZero(args)
	}
	return false
}

// allZero reports whether every length in a list is zero.
func allZero(list string) bool {
	fields := strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' })
	for _, f := range fields {
		if !IsZero(f) {
			return false
		}
	}
	return len(fields) > 0
}

// scaledAway reports whether a transform scales its element to nothing
// on some axis.
func scaledAway(transform string) bool {
	for rest := transform; ; {
		i := strings.Index(rest, "scale")
		if i < 0 {
			return false
		}
		rest = rest[i+len("scale"):]
		open := strings.IndexByte(rest, '(')
		shut := strings.IndexByte(rest, ')')
		if open < 0 || shut < open {
			return false
		}
		axis := rest[:open]
		args := strings.Split(rest[open+1:shut], ",")
		switch {
		case axis == "" && len(args) == 1, axis == "x", axis == "y":
			if IsZero(args[0]) {
				return true
			}
		case axis == "" || axis == "3d":
			for _, a := range args[:min(len(args), 2)] {
				if IsZero(a) {
					return true
				}
			}
		}
		rest = rest[shut:]
	}
}

// filteredAway reports whether a filter makes its element transparent
// ("opacity(0)").
func filteredAway(filter string) bool {
	_, args, ok := strings.Cut(filter, "opacity(")
	if !ok {
		return false
	}
	arg, _, _ := strings.Cut(args, ")")
	return zeroOpacity(arg)
}

// translatedAway reports whether a transform's translation, or the
// translate property, moves its element left or up as far as
// indentedAway counts (a thousand pixels, fifty ems).
func translatedAway(transform, translate string) bool {
	var lengths []string
	for rest := transform; ; {
		i := strings.Index(rest, "translate")
		if i < 0 {
			break
		}
		rest = rest[i:]
		open, shut := strings.IndexByte(rest, '('), strings.IndexByte(rest, ')')
		if open < 0 || shut < open {
			break
		}
		lengths = append(lengths, strings.Split(rest[open+1:shut], ",")...)
		rest = rest[shut:]
	}
	if translate != "" {
		// cssValue took out the spaces between the lengths ("0-9999px"):
		// each is read up to its unit.
		lengths = append(lengths, cssLength.FindAllString(translate, 3)...)
	}
	for _, l := range lengths {
		// Moved right or down, an element widens the page's scrolling
		// area and a reader scrolls to it; left or up, it is gone.
		// A percentage is of the element's own size: an off-canvas menu
		// parked at -100% slides in when opened.
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "-") && !strings.HasSuffix(l, "%") && !strings.HasSuffix(l, "vw") && indentedAway(l) {
			return true
		}
	}
	return false
}

// edgeOn matches a transform that turns its element edge-on to the
// reader, a quarter turn about an axis in the screen's plane.
var edgeOn = regexp.MustCompile(`rotate[xy]\(-?(90|270)deg\)`)

// placedAway reports whether an absolutely placed element sits a
// thousand pixels or fifty ems left of or above the page (the off-screen
// positioning hidden.go reads in inline styles, in a stylesheet's rule).
func placedAway(d map[string]string) bool {
	if p := d["position"]; p != "absolute" && p != "fixed" {
		return false
	}
	for _, side := range []string{"left", "top"} {
		if v := d[side]; strings.HasPrefix(v, "-") && indentedAway(v) && !strings.HasSuffix(v, "%") {
			return true
		}
	}
	return false
}

// cssLength is a length in a list written without spaces.
var cssLength = regexp.MustCompile(`[-+]?[\d.]+[a-z%]*`)

// indentedAway reports whether a text-indent moves the text far off its
// box (image replacement, or hiding): a thousand pixels or fifty ems.
func indentedAway(value string) bool {
	n, unit, ok := number(value)
	if !ok {
		return false
	}
	if n < 0 {
		n = -n
	}
	switch unit {
	case "px", "pt":
		return n >= 999
	case "em", "rem":
		return n >= 50
	case "%", "vw":
		return n >= 100
	}
	return false
}

// OverflowHidden reports whether what overflows the element's box is not
// shown.
func OverflowHidden(d map[string]string) bool {
	for _, p := range []string{"overflow", "overflow-y"} {
		if v := d[p]; strings.HasPrefix(v, "hidden") || strings.HasPrefix(v, "clip") {
			return true
		}
	}
	return false
}

// InvisibleNodes returns the outermost elements whose inline style or one
// of rules makes their text invisible, with two exceptions. A style or
// rule that hides text in more than maxHidingPlaces elements is the page's
// own convention (every section faded in until it scrolls into view, a
// link stretched invisibly over each product card), not a hiding place,
// and counts for none of them. And when together they hold more of the
// page's words than stay visible, the page is one whose content a script
// fades or expands in, and none go. words counts the words of an
// element's text as the caller counts them, pageWords those of the page.
// A page whose styles would cost more than maxMatchCost to read gives
// ErrTooCostly.
func InvisibleNodes(root *html.Node, rules *Rules, pageWords int, words func(*html.Node) int) (map[*html.Node]bool, error) {
	if rules == nil {
		rules = &Rules{} // no stylesheet: inline styles alone
	}
	byWay := map[string][]*html.Node{} // elements by the style or rule that hides them
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && rules.cost <= maxMatchCost; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if way := invisibleBy(c, rules); way != "" && !(strings.HasPrefix(way, "fold ") && words(c) > foldMaxWords) {
				byWay[way] = append(byWay[way], c)
				continue
			}
			walk(c)
		}
	}
	walk(root)
	if rules.cost > maxMatchCost {
		return nil, ErrTooCostly
	}
	found := map[*html.Node]bool{}
	hidden := 0
	for way, nodes := range byWay {
		counts := make([]int, len(nodes))
		places := 0
		for i, n := range nodes {
			if counts[i] = words(n); counts[i] > 0 {
				places++
			}
		}
		// Text coloured as what lies behind it is no page's way of
		// showing anything later (backdrop.go): it goes wherever it is.
		if places > maxHidingPlaces && !strings.HasPrefix(way, "colour ") {
			continue
		}
		for i, n := range nodes {
			found[n] = true
			hidden += counts[i]
		}
	}
	if len(found) == 0 || hidden > pageWords-hidden {
		return nil, nil
	}
	return found, nil
}

// foldMaxWords is the most words an element the stylesheet's display:none
// or visibility:hidden folds may hold and still be taken for a hiding
// place: more is content a control shows (a product's details in a
// dialog its "View details" button opens lost the description).
const foldMaxWords = 100

// maxHidingPlaces is how many elements with text one style or rule may
// hide on a page and still be taken for a hiding place.
const maxHidingPlaces = 2

// invisibleBy returns what makes n's text invisible, its inline style or
// one of rules, or "".
func invisibleBy(n *html.Node, rules *Rules) string {
	if style := dom.Attr(n, "style"); style != "" && (InvisibleStyle(style) || rules.inlineHidesAsInherited(n, style)) {
		if !(byColourAlone(Declarations(style)) && rules.gradientText(n)) {
			return "style " + NormalizeCSS(style)
		}
	}
	if i, folds := rules.hides(n); i >= 0 && !(rules.hiding[i].byColour && rules.gradientText(n)) {
		if folds {
			return "fold " + strconv.Itoa(i)
		}
		return "rule " + strconv.Itoa(i)
	}
	c := rules.textColour(n)
	if c != "" && rules.paintedAs(n, c) {
		return "colour " + c
	}
	return ""
}

// withoutComments removes the comments of CSS text; one left open runs to
// the end, as in a browser.
func withoutComments(s string) string {
	var b strings.Builder
	for {
		open := strings.Index(s, "/*")
		if open < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:open])
		shut := strings.Index(s[open+2:], "*/")
		if shut < 0 {
			return b.String()
		}
		s = s[open+2+shut+2:]
	}
}

// NormalizeCSS lower-cases a declaration list and removes whitespace and
// comments, so "Display : /**/ None" matches "display:none".
func NormalizeCSS(s string) string {
	if strings.Contains(s, "/*") {
		s = withoutComments(s) // "display:/**/none" is display:none
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '\f':
			return -1
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
