package visibility

import (
	"errors"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/siftd/sift/plugins/html/internal/dom"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"
)

// A page's own <style> can hide text as an inline style does (a class
// with font-size:0 or opacity:0, a rule with display:none).
// PageRules reads those rules outside any at-rule and inside the
// at-rules that apply on every screen (atrules.go); their
// selectors are matched with cascadia, so descendant, child and sibling
// combinators, attributes and :not() select as a browser selects. A
// selector that depends on a state a reader changes (:hover, :focus,
// :checked, :target) or names a pseudo-element is left out: what it hides
// is shown otherwise.
//
// Rules that fold content scripts show are told apart two ways. For the
// declarations invisible.go reads (opacity, font size, …), a subject class
// or id the stylesheets name again (".fade" and ".fade.show") is left out,
// since another rule may show what this one hides. For display:none and
// visibility:hidden, which fold carousels, tabs and menus, an element
// stays when a rule that shows it (display other than none, visibility
// visible) matches it and wins the cascade (".tab-content > .active"),
// or names its subject's class or id without dom.Matching it now (a state a
// script sets: ".menu.open"); the guards of invisible.go (at most two
// places, never more than stays visible) apply to both.

// hintWords are the properties whose values invisibleHint reads.
var hintWords = []string{"opacity", "font", "font-size", "color", "scale", "translate", "rotate", "filter", "text-indent", "height", "content-visibility", "clip-path", "clip", "left", "top", "display", "visibility"}

// invisibleHint reports whether the property named at text[i:] (one of
// hintWords, in lower-cased text) has a value that may make text
// invisible: the places around which rules are parsed, as clipRules does
// for clips. A regular expression over whole stylesheets cost more than
// the rest of the extraction (BenchmarkInvisibleText); finding the words
// and reading a few bytes after each does not. A colour equal to the
// background counts when the rule declares both alike.
func invisibleHint(text string, i int, word string) bool {
	value := text[i+len(word):]
	if word == "rotate" {
		return edgeOn.MatchString(strings.ReplaceAll(text[i:min(len(text), i+24)], " ", ""))
	}
	if word == "scale" || word == "translate" {
		value = strings.TrimLeft(value, "xyz3d")
		if strings.HasPrefix(value, "(") {
			arg := strings.TrimLeft(value[1:], " ")
			return word == "scale" && strings.HasPrefix(arg, "0") || word == "translate" && strings.HasPrefix(arg, "-")
		}
	}
	value = strings.TrimLeft(value, " \t\r\n")
	if !strings.HasPrefix(value, ":") {
		return false
	}
	value = strings.TrimLeft(value[1:], " \t\r\n")
	if strings.HasPrefix(value, "var(") {
		// the custom property's value is read with the rule (resolveVars)
		return word == "display" || word == "visibility" || word == "opacity" || word == "font-size"
	}
	switch word {
	case "scale":
		return strings.HasPrefix(value, "0")
	case "translate":
		return strings.HasPrefix(value, "-")
	case "filter":
		return strings.Contains(value[:min(len(value), 64)], "opacity(")
	case "display":
		return strings.HasPrefix(value, "none")
	case "visibility":
		return strings.HasPrefix(value, "hidden") || strings.HasPrefix(value, "collapse")
	case "opacity", "font", "font-size", "height":
		return strings.HasPrefix(value, "0") || strings.HasPrefix(value, ".")
	case "text-indent":
		n, _, ok := number(strings.TrimLeft(value, "-"))
		return ok && n >= 50
	case "content-visibility":
		return strings.HasPrefix(value, "hidden")
	case "clip-path":
		return true
	case "clip":
		return i+len("clip") < len(text) && text[i+len("clip")] != '-' && strings.HasPrefix(value, "rect(")
	case "left", "top":
		// left:-9999px; not margin-left, nor a value's word
		return startsProperty(text, i, word) && strings.HasPrefix(value, "-") && indentedAway(cssLength.FindString(value))
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
		decls := Declarations(rule)
		return sameColor(decls["color"], background(decls))
	}
	return false
}

// sheetRule is one selector of a rule of the page's own stylesheet that
// makes text invisible.
type sheetRule struct {
	sel cascadia.Sel
	// precedence places it in the cascade: its specificity, its order
	// (its sheet's index << 32 | its offset there) and whether its
	// declarations are !important, which a rule that shows without it
	// does not undo. Layers are not read for hiding rules.
	precedence
	// folds: it hides by display:none or visibility:hidden, and a rule
	// that shows the element may undo it.
	folds bool
	// wrapped: it was read from an at-rule (atrules.go), and a rule that
	// shows on some screen undoes it.
	wrapped bool
	// subject are the subject's classes and ids (".b", "#c"), lower-cased.
	subject []string
	// byColour: it hides by a transparent colour alone, which a
	// background clipped to the text shows through (gradient text).
	byColour bool
	// written are its declarations as the page wrote them, when they read
	// a custom property they do not set: whether the rule hides, and how,
	// is then decided for each element (inherit.go).
	written map[string]string
}

// showRule is a rule that shows what display:none or visibility:hidden
// hid: display other than none, or visibility visible.
type showRule struct {
	sel cascadia.Sel
	precedence
	text string // the selector, lower-cased
	// written are its declarations as the page wrote them, when they read
	// a custom property they do not set: it shows an element only when
	// they do not hide it with the value the element inherits.
	written map[string]string
}

// Rules are the hiding rules of a page's stylesheets, and the
// stylesheets to read the rules that show what they fold from.
type Rules struct {
	hiding []sheetRule
	// byName indexes the hiding rules by a class or id their subject
	// names (".b", "#c"); anyElement are those whose subject names none.
	// An element is matched only against the rules its own names and
	// anyElement give: most pages' rules name classes it does not have.
	byName     map[string][]int
	anyElement []int
	// raw are the stylesheets as the page wrote them; sheets the same,
	// the at-rules that apply on every screen unwrapped (atrules.go);
	// lower those, ASCII lower-cased (offsets are the same in all).
	raw    []string
	sheets []string
	lower  []string
	// shows are the rules that undo a rule outside at-rules ([0]: outside
	// at-rules and in those that apply on every screen) and one read from
	// an at-rule ([1]: in any that applies on some screen too), each
	// read on the first folded element that needs it.
	shows [2][]showRule
	read  [2]bool
	// somewhere and somewhereLower are the sheets with the at-rules that
	// apply on some screen unwrapped (somewhereSheets).
	somewhere, somewhereLower []string
	// settings are the rules that set each custom property a rule or
	// style reads, and varsOn each property's value on the elements asked
	// about (inherit.go), both filled as needed.
	settings map[string][]varSetting
	varsOn   map[string]map[*html.Node]inherited
	// paintRules are the rules that give elements a background, read once
	// painted, and backdrops what lies behind the elements asked about
	// (backdrop.go).
	paintRules []sheetPaint
	paintIndex subjectIndex
	painted    bool
	backdrops  map[*html.Node]painted
	// colourRuleList are the rules that colour text, read once coloured
	// (sheetcolour.go), and backgrounds the colours the page may paint
	// behind them.
	colourRuleList []sheetColourRule
	colourIndex    subjectIndex
	coloured       bool
	backgrounds    map[string]bool
	// cost counts the selector matches read for the page, each weighed
	// by the depth of its element, against maxMatchCost (match); depths
	// are the elements' depths, kept as found.
	cost   int
	depths map[*html.Node]int
	// root is the page's.
	root *html.Node
	// complete is set when the page loads no stylesheet and no script
	// that may restyle it: what its sheets say is all the CSS it has;
	// darkScheme when it asks for a dark colour scheme, whose unpainted
	// page is not white (complete.go).
	complete, darkScheme bool
	// layers are each sheet's @layer blocks, read when first needed
	// (cascade.go).
	layers [][][2]int
	// clipRules are the rules that clip a background to the text, read
	// once clipsRead (gradient.go).
	clipRules []cascadia.Sel
	clipIndex subjectIndex
	clipsRead bool
	// pictured counts, for each parent asked about, its children that show
	// a picture (backdrop.go).
	pictured map[*html.Node][]*html.Node
	// placedRules are the rules that position elements, read once
	// placedRead (positioned.go).
	placedRules []placedRule
	placedIndex subjectIndex
	placedRead  bool
	// pageColour is the page's background, read once pageRead (paints.go).
	pageColour string
	pageRead   bool
}

// PageRules returns the page's own <style> rules that make text
// invisible.
func PageRules(root *html.Node) *Rules {
	var sheets []string
	restyled, dark := false, false
	for _, el := range dom.Matching(root, func(n *html.Node) bool { return n.Data == "style" || restylers[n.Data] }) {
		if el.Data != "style" {
			restyled = restyled || restyles(el)
			dark = dark || asksDarkScheme(el)
			continue
		}
		sheets = append(sheets, styleSheets(el)...)
	}
	for _, tag := range []string{"html", "body"} {
		for _, el := range dom.Matching(root, func(n *html.Node) bool { return n.Data == tag }) {
			dark = dark || declaresDarkScheme(asciiLower(dom.Attr(el, "style")))
		}
	}
	r := &Rules{root: root, raw: sheets, sheets: make([]string, len(sheets)), complete: !restyled, darkScheme: dark}
	if len(sheets) == 0 {
		return r
	}
	defer func() {
		if r.complete {
			r.paints() // which may find the page's paint unknown, before any element is read
		}
	}()
	wrapped := make([][][2]int, len(sheets))
	var nested strings.Builder
	for i, sheet := range sheets {
		r.sheets[i], wrapped[i] = unwrapAtRules(sheet, reachEverywhere)
		nested.WriteString(nestedRules(r.sheets[i]))
	}
	if nested.Len() > 0 {
		// The nested rules follow the page's, as one sheet more.
		r.raw = append(slices.Clip(r.raw), nested.String())
		r.sheets = append(r.sheets, nested.String())
		wrapped = append(wrapped, nil)
	}
	r.lower = make([]string, len(r.sheets))
	for i, sheet := range r.sheets {
		r.lower[i] = asciiLower(sheet)
		r.complete = r.complete && !importsSheet(r.lower[i])
		r.darkScheme = r.darkScheme || declaresDarkScheme(r.lower[i])
	}
	counts := map[string]int{}
	declaringRules(r.sheets, r.lower, hintWords, invisibleHint, func(d declared) {
		for _, rule := range invisibleSelectors(d) {
			rule.wrapped = within(wrapped[d.order>>32], d.order&(1<<32-1))
			// Names are counted in the page's sheets, not again in the
			// nested rules written out from them.
			if !rule.folds && namedElsewhere(rule.subject, r.lower[:len(sheets)], counts) {
				continue
			}
			r.hiding = append(r.hiding, rule)
		}
	})
	// With no hiding rule, the sheets may still set the custom
	// properties an inline style reads.
	r.byName = map[string][]int{}
	for i, rule := range r.hiding {
		if len(rule.subject) == 0 {
			r.anyElement = append(r.anyElement, i)
		} else {
			r.byName[rule.subject[0]] = append(r.byName[rule.subject[0]], i)
		}
	}
	return r
}

// maxMatchCost bounds what reading one page's styles may cost: a
// selector match walks up to the element's ancestors, so each is weighed
// by the element's depth, and a page of many rules over a deep tree costs
// rules × elements × depth (a thousand descendant rules over a tree 200
// deep took 13.5 s). The three development sets' pages cost at most
// 4.6 million (1.1 million at the 99th percentile; 2026-12-07).
const maxMatchCost = 50_000_000

// ErrTooCostly is returned for a page whose styles would cost more than
// maxMatchCost to read: what they hide is not known, and the page is not
// read rather than read with what they hide.
var ErrTooCostly = errors.New("the page's stylesheets cost too many selector matches to read for hidden text")

// match reports whether sel matches n, its cost counted against
// maxMatchCost: past it, nothing matches and the page is refused
// (InvisibleNodes).
func (r *Rules) match(sel cascadia.Sel, n *html.Node) bool {
	if r.cost += 1 + r.depth(n); r.cost > maxMatchCost {
		return false
	}
	return sel.Match(n)
}

// depth returns how many ancestors n has.
func (r *Rules) depth(n *html.Node) int {
	if n.Parent == nil {
		return 0
	}
	if d, ok := r.depths[n]; ok {
		return d
	}
	if r.depths == nil {
		r.depths = map[*html.Node]int{}
	}
	d := r.depth(n.Parent) + 1
	r.depths[n] = d
	return d
}

// spaced returns the rule's declarations, each value's blanks kept as one
// space and lower-cased ("rgb(255 255 255/var(--o))", which the rules'
// own reading writes "rgb(255255255/var(--o))"), var() unresolved.
func (d declared) spaced() map[string]string {
	block := d.text
	if i := strings.IndexByte(block, '{'); i >= 0 {
		block = block[i+1:]
	}
	if i := strings.LastIndexByte(block, '}'); i >= 0 {
		block = block[:i]
	}
	return parseDeclarations(block, spacedValue)
}

// somewhereSheets returns the page's sheets with the at-rules that apply
// on some screen unwrapped, as the page wrote them and lower-cased, read
// once for the page when first needed.
func (r *Rules) somewhereSheets() (sheets, lower []string) {
	if r.somewhere == nil {
		r.somewhere = make([]string, len(r.raw))
		r.somewhereLower = make([]string, len(r.raw))
		for i, raw := range r.raw {
			r.somewhere[i], _ = unwrapAtRules(raw, reachSomewhere)
			r.somewhereLower[i] = asciiLower(r.somewhere[i])
		}
	}
	return r.somewhere, r.somewhereLower
}

// startsProperty reports whether text[i:], where a property's name was
// found, starts that name: no name byte before it ("color", not the end
// of "border-color").
func startsProperty(text string, i int, _ string) bool { return i == 0 || !isNameByte(text[i-1]) }

// asciiLower lower-cases the ASCII letters of s alone, byte by byte, so
// that offsets in the result are offsets in s, invalid UTF-8 included
// (strings.Map wrote each stray byte as a three-byte U+FFFD, and a rule's
// offsets ran past the page's sheet).
func asciiLower(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' })
	if i < 0 {
		return s
	}
	b := []byte(s)
	for j := i; j < len(b); j++ {
		if c := b[j]; c >= 'A' && c <= 'Z' {
			b[j] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// hides returns the index of the rule that hides n, or -1, and whether
// it hides by folding (display:none, visibility:hidden).
func (r *Rules) hides(n *html.Node) (found int, folds bool) {
	found = -1
	try := func(i int) {
		rule := r.hiding[i]
		if found >= 0 && i > found || !r.match(rule.sel, n) {
			return
		}
		hidden, folding := true, rule.folds
		if rule.written != nil {
			hidden, folding = r.hidesAsInherited(n, rule.written)
		}
		if hidden && (!folding || !r.shown(n, rule) && (rule.important || !styleShows(n))) {
			found, folds = i, folding
		}
	}
	for _, i := range r.anyElement {
		try(i)
	}
	for _, class := range strings.Fields(asciiLower(dom.Attr(n, "class"))) {
		for _, i := range r.byName["."+class] {
			try(i)
		}
	}
	if id := dom.Attr(n, "id"); id != "" {
		for _, i := range r.byName["#"+asciiLower(id)] {
			try(i)
		}
	}
	return found, folds
}

// styleShows reports whether n's own style shows it, as a rule that folds
// it does not unless it is !important: a display other than none, or
// visibility: visible. A page saved after its scripts ran holds the
// style they wrote on what they opened.
func styleShows(n *html.Node) bool {
	style := dom.Attr(n, "style")
	if lower := asciiLower(style); !strings.Contains(lower, "display") && !strings.Contains(lower, "visibility") {
		return false
	}
	d := Declarations(style)
	display, visibility := strings.TrimSuffix(d["display"], "!important"), d["visibility"]
	return display != "" && display != "none" && !strings.Contains(display, "var(") || strings.HasPrefix(visibility, "visible")
}

// shown reports whether a rule of the stylesheets shows n, which rule
// folds: one that matches n and wins the cascade, or one that names the
// subject's class or id and does not match n now (a state a script sets).
func (r *Rules) shown(n *html.Node, rule sheetRule) bool {
	which := 0
	if rule.wrapped {
		which = 1
	}
	if !r.read[which] {
		r.read[which] = true
		sheets, lower := r.sheets, r.lower
		if rule.wrapped {
			sheets, lower = r.somewhereSheets()
		}
		r.shows[which] = showRules(sheets, lower)
	}
	for _, s := range r.shows[which] {
		if rule.important && !s.important {
			continue // !important wins the cascade whatever comes after
		}
		if r.match(s.sel, n) {
			if rule.outranks(s.precedence) {
				continue
			}
			if s.written != nil {
				if hides, _ := r.hidesAsInherited(n, s.written); hides {
					continue
				}
			}
			return true
		}
		for _, name := range rule.subject {
			if countName(s.text, name) > 0 {
				return true
			}
		}
	}
	return false
}

// showWords are the properties whose values showRules reads.
var showWords = []string{"display", "visibility"}

// showRules returns the selectors of the stylesheets' rules, outside any
// at-rule but those that apply on every screen, that show an element:
// display other than none, visibility visible.
func showRules(sheets, lower []string) []showRule {
	var shows []showRule
	declaringRules(sheets, lower, showWords, showHint, func(rule declared) {
		decls := rule.decls
		if d, ok := decls["display"]; ok && d == "none" || decls["visibility"] == "hidden" || decls["visibility"] == "collapse" {
			return
		}
		for _, text := range rule.selectors {
			if c, ok := parseSelector(text); ok {
				shows = append(shows, showRule{sel: c, precedence: precedence{important: rule.important, spec: c.Specificity(), order: rule.order}, text: asciiLower(text), written: rule.written()})
			}
		}
	})
	return shows
}

// declared is a rule of a stylesheet as declaringRules reads it.
type declared struct {
	selectors []string // each selector, :is() and :where() written out
	origins   []string // the selector each of selectors came from
	// decls are its declarations, each var() resolved within them; raw
	// the same as the page wrote them.
	decls, raw map[string]string
	order      int // its sheet's index << 32 | its offset there
	important  bool
	text       string // the rule as the page wrote it
	// unexpanded: a selector of its :is() or :where() could not be
	// written out, and stands for none.
	unexpanded bool
	// relaxed are those selectors with their :is() and :where() taken
	// out (relaxIs): more elements than the page's selectors match, for
	// the rules that hide, which fail closed.
	relaxed []string
}

// written returns the rule's declarations as the page wrote them when one
// that hides reads a custom property they do not set, or nil: whether the
// rule hides is then decided for each element (inherit.go).
func (d declared) written() map[string]string {
	if inheritsVars(d.raw) {
		return d.raw
	}
	return nil
}

// readsVar reports whether a declaration's value holds a var().
func readsVar(decls map[string]string) bool {
	for _, value := range decls {
		if strings.Contains(value, "var(") {
			return true
		}
	}
	return false
}

// declaringRules calls each with every rule of sheets (lower: the same,
// lower-cased), outside at-rules, that declares one of words where at
// says so: the one loop of the rules that hide, show, set custom
// properties and paint backgrounds, each reading only the rules around
// the words it looks for.
func declaringRules(sheets, lower []string, words []string, at func(text string, i int, word string) bool, each func(declared)) {
	for i, text := range lower {
		var offsets []int
		for _, word := range words {
			for _, j := range wordOffsets(text, word) {
				if at(text, j, word) {
					offsets = append(offsets, j)
				}
			}
		}
		offsets = append(offsets, escapesInDeclarations(text)...)
		slices.Sort(offsets)
		for _, span := range ruleSpans(text, offsets) {
			var texts []string // the parser reuses its tokens: written out at once
			decls := map[string]string{}
			if !readRule(sheets[i][span[0]:span[1]], func(t []css.Token) { texts = selectorTexts(t) }, func(name, value string) { decls[name] = value }) {
				continue
			}
			selectors, origins := expandWithOrigins(texts)
			missed := notWrittenOut(texts, origins)
			rule := declared{selectors: selectors, origins: origins, unexpanded: len(missed) > 0, relaxed: relaxedSelectors(missed),
				decls: decls, raw: decls, order: i<<32 | span[0],
				important: strings.Contains(text[span[0]:span[1]], "!important"), text: sheets[i][span[0]:span[1]]}
			if readsVar(decls) {
				rule.raw = maps.Clone(decls)
			}
			resolveVars(decls, nil)
			each(rule)
		}
	}
}

// showHint reports whether the property at text[i:] shows an element.
func showHint(text string, i int, word string) bool {
	if i > 0 && isNameByte(text[i-1]) {
		return false // "-webkit-box-display", a value's word
	}
	value := strings.TrimLeft(text[i+len(word):], " \t\r\n")
	if !strings.HasPrefix(value, ":") {
		return false
	}
	value = strings.TrimLeft(value[1:], " \t\r\n")
	if word == "display" {
		return !strings.HasPrefix(value, "none")
	}
	return strings.HasPrefix(value, "visible")
}

// namedElsewhere reports whether one of the subject's classes or ids
// occurs more than once in the stylesheets: another rule may show it.
// counts keeps each name's count for the page's other rules: many rules
// name the same classes, and counting walks every sheet.
func namedElsewhere(subject []string, sheets []string, counts map[string]int) bool {
	for _, name := range subject {
		count, ok := counts[name]
		if !ok {
			for _, sheet := range sheets {
				count += countName(sheet, name)
			}
			counts[name] = count
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

// wordOffsets returns the offsets of word in text.
func wordOffsets(text, word string) []int {
	var at []int
	for from := 0; ; {
		i := strings.Index(text[from:], word)
		if i < 0 {
			return at
		}
		at = append(at, from+i)
		from += i + len(word)
	}
}

// closing returns the offset just past the "}" that closes the block
// text opens at open, or len(text) when it does not close.
func closing(text string, open int) int {
	depth := 0
	for j := open; j < len(text); j++ {
		switch text[j] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return j + 1
			}
		}
	}
	return len(text)
}

// ruleSpans returns the spans of text of the rules, outside any at-rule,
// that hold the offsets hints (in order), found by their braces as
// clipRules finds its rules: reading only those keeps the cost of large
// stylesheets down.
func ruleSpans(text string, hints []int) [][2]int {
	// One pass forward over the braces, the hints in order: a rule ends
	// where its block closes, past the rules nested in it (".w { display:
	// none; & .y { color: red } }": its first "}" closed the nested rule,
	// and the rule was read as "& .y"), and a declaration after a nested
	// rule is in its parent's block.
	var spans [][2]int
	var open []int // the "{" open at pos, outermost first
	pos, shut := 0, 0
	for _, i := range hints {
		if i < shut {
			continue // in the rule just taken
		}
		for ; pos < i; pos++ {
			switch text[pos] {
			case '{':
				open = append(open, pos)
			case '}':
				if len(open) > 0 {
					open = open[:len(open)-1]
				}
			}
		}
		if len(open) != 1 {
			continue // outside any rule, or in an at-rule's or a nested one
		}
		shut = closing(text, open[0])
		start := strings.LastIndexAny(text[:open[0]], "{};") + 1
		spans = append(spans, [2]int{start, shut})
	}
	return spans
}

// invisibleSelectors returns a rule's selectors when its declarations
// make text invisible, or may for some elements (inherit.go).
func invisibleSelectors(d declared) []sheetRule {
	written := d.written()
	hidden, folds := hidingDecls(d.decls)
	if written != nil {
		// decided for each element; a display or visibility that reads a
		// custom property may fold, and another rule show it
		folds = folds || strings.Contains(written["display"], "var(") || strings.Contains(written["visibility"], "var(")
	} else if !hidden {
		return nil
	}
	var rules []sheetRule
	for _, text := range slices.Concat(d.selectors, d.relaxed) {
		if sel, ok := parseSelector(text); ok {
			rules = append(rules, sheetRule{sel: sel, precedence: precedence{important: d.important, spec: sel.Specificity(), order: d.order}, folds: folds, subject: subjectNames(text), written: written,
				byColour: hidden && byColourAlone(d.decls)})
		}
	}
	return rules
}

// selectorTexts writes a selector list's selectors out again, one string
// each.
func selectorTexts(tokens []css.Token) []string {
	var texts []string
	for _, part := range splitSelectors(tokens) {
		var b strings.Builder
		for _, t := range part {
			b.Write(t.Data)
		}
		texts = append(texts, b.String())
	}
	return texts
}

// stateful are the pseudo-classes of a state a reader changes (cascadia
// matches :checked on the page as served).
var stateful = []string{":hover", ":focus", ":active", ":checked", ":target", ":visited", ":focus-within", ":focus-visible"}

// parseSelector parses one selector with cascadia, or reports false for
// one it cannot read, one with a pseudo-element (its text is not the
// element's) and one that depends on a reader's state.
func parseSelector(text string) (cascadia.Sel, bool) {
	lower := asciiLower(text)
	if text == "" || strings.Contains(lower, "::") {
		return nil, false
	}
	for _, s := range stateful {
		if strings.Contains(lower, s) {
			return nil, false
		}
	}
	sel, err := cascadia.Parse(childHas.ReplaceAllString(text, ":haschild("))
	if err != nil || sel.PseudoElement() != "" {
		return nil, false
	}
	return sel, true
}

// relaxedSelectors returns the selectors relaxIs writes for missed,
// those whose :is() and :where() could not be written out (more than
// maxAlternatives, or past maxExpandCalls).
func relaxedSelectors(missed []string) []string {
	var relaxed []string
	for _, text := range missed {
		if r := relaxIs(text); r != "" {
			relaxed = append(relaxed, r)
		}
	}
	return relaxed
}

// notWrittenOut returns the selectors of texts with :is() or :where()
// that have no selector written out from them among origins.
func notWrittenOut(texts, origins []string) []string {
	var out []string
	for _, text := range texts {
		if l := asciiLower(text); (strings.Contains(l, ":is(") || strings.Contains(l, ":where(")) && !slices.Contains(origins, text) {
			out = append(out, text)
		}
	}
	return out
}

// relaxIs writes selector without its :is() and :where(): one standing
// alone between combinators becomes "*", one on a compound goes, so the
// selector matches every element the page's does, and more. A hiding
// rule whose selector sift cannot write out so hides at least what it
// hides in a browser (twenty arguments in an :is() hid an instruction
// sift read). "" when one stands inside another pseudo-class (":not()"
// would match less), or the selector ends inside one.
func relaxIs(selector string) string {
	lower := asciiLower(selector)
	var b strings.Builder
	depth := 0
	for i := 0; i < len(selector); i++ {
		name := ""
		switch {
		case strings.HasPrefix(lower[i:], ":is("):
			name = ":is("
		case strings.HasPrefix(lower[i:], ":where("):
			name = ":where("
		}
		if name == "" {
			switch selector[i] {
			case '(':
				depth++
			case ')':
				depth--
			}
			b.WriteByte(selector[i])
			continue
		}
		if depth > 0 {
			return ""
		}
		end, open := i+len(name), 1
		for ; end < len(selector) && open > 0; end++ {
			switch selector[end] {
			case '(':
				open++
			case ')':
				open--
			}
		}
		if open > 0 {
			return ""
		}
		before := strings.TrimLeft(b.String(), " ")
		alone := before == "" || strings.ContainsRune(" >+~", rune(before[len(before)-1]))
		if alone && (end == len(selector) || strings.ContainsRune(" >+~", rune(selector[end]))) {
			b.WriteByte('*')
		}
		i = end - 1
	}
	return strings.TrimSpace(b.String())
}

// expandWithOrigins returns the selectors expandIs writes each of texts
// as, and for each the selector it came from.
func expandWithOrigins(texts []string) (out, origins []string) {
	for _, text := range texts {
		for _, sel := range expandIs(text) {
			out, origins = append(out, sel), append(origins, text)
		}
	}
	return out, origins
}

// childHas is :has(> …), which cascadia calls :haschild(…).
var childHas = regexp.MustCompile(`(?i):has\(\s*>`)

// maxAlternatives bounds the selectors one selector with :is() and
// :where() is written out as.
const maxAlternatives = 16

// expandIs writes a selector with :is() or :where(), which cascadia does
// not know (its :matches() matches text), as the selectors it stands for:
// ":is(.a, .b) .c" as ".a .c" and ".b .c". An argument holding a
// combinator is written in place only where the pseudo-class stands
// alone between combinators; a selector that cannot be written out, or
// only as more than maxAlternatives, gives none.
func expandIs(text string) []string {
	calls := 0
	return expandCounted(text, &calls)
}

// maxExpandCalls bounds the selectors expandIs reads while writing one
// out: each call reads its text whole.
const maxExpandCalls = 256

// expandCounted is expandIs, counting its calls in calls.
func expandCounted(text string, calls *int) []string {
	if *calls++; *calls > maxExpandCalls {
		return nil
	}
	lower := asciiLower(text)
	if strings.Count(lower, ":is(")+strings.Count(lower, ":where(") > maxAlternatives {
		return nil // each is written out in turn: a hostile page nests thousands
	}
	i, name := strings.Index(lower, ":is("), ":is("
	if j := strings.Index(lower, ":where("); j >= 0 && (i < 0 || j < i) {
		i, name = j, ":where("
	}
	if i < 0 {
		return []string{text}
	}
	open := i + len(name)
	end, args := open, []string{}
	for depth, from := 1, open; end < len(text); end++ {
		switch text[end] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 1 {
				args, from = append(args, strings.TrimSpace(text[from:end])), end+1
			}
		}
		if depth == 0 {
			args = append(args, strings.TrimSpace(text[from:end]))
			break
		}
	}
	if end == len(text) {
		return nil
	}
	prefix, suffix := text[:i], text[end+1:]
	alone := (prefix == "" || strings.ContainsRune(" >+~", rune(prefix[len(prefix)-1]))) &&
		(suffix == "" || strings.ContainsRune(" >+~:", rune(suffix[0])))
	var out []string
	for _, arg := range args {
		if arg == "" || !alone && strings.ContainsAny(arg, " >+~") {
			return nil
		}
		alts := expandCounted(prefix+arg+suffix, calls)
		if alts == nil {
			// Too many or none: the whole selector gives none, and its other
			// arguments are not written out in vain (twelve :is() of eight
			// arguments each in one compound took a 2 KB page 30 s).
			return nil
		}
		if out = append(out, alts...); len(out) > maxAlternatives {
			return nil
		}
	}
	return out
}

// subjectNames returns the classes and ids (".b", "#c") of a selector's
// subject, its last compound, lower-cased; those inside :not() and other
// parentheses are not the subject's.
func subjectNames(text string) []string {
	text = asciiLower(text)
	start, depth := 0, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case depth == 0 && (c == ' ' || c == '>' || c == '+' || c == '~' || c == '\t' || c == '\n'):
			start = i + 1
		}
	}
	var names []string
	last := text[start:]
	if strings.IndexByte(last, '\\') >= 0 {
		return nil // `.md\:gone` names class "md:gone": matched everywhere, as the index does
	}
	depth = 0
	for i := 0; i < len(last); i++ {
		switch c := last[i]; {
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case depth == 0 && (c == '.' || c == '#'):
			end := i + 1
			for end < len(last) && isNameByte(last[end]) {
				end++
			}
			if end > i+1 {
				names = append(names, last[i:end])
			}
			i = end - 1
		}
	}
	return names
}
