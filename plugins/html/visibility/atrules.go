package visibility

import (
	"slices"
	"strings"
)

// A rule wrapped in an at-rule hides text as well as one outside it when
// the at-rule applies on every screen: "@media screen", "@media all and
// (min-width: 0)", "@supports (display: grid)", "@layer base". Hidden
// instructions sat in such wrappers while only rules outside at-rules were
// read. A responsive rule ("@media (max-width: 600px)") hides on some
// screens only, and a reader on another sees the text, so it hides
// nothing. What a rule read from an at-rule folds, a rule in any at-rule
// that applies on some screen may show: MUI writes a responsive element
// as "@media (min-width:0px){.a{display:none}}" and
// "@media (min-width:900px){.a{display:block}}", shown on a desktop. What a
// rule outside at-rules folds is shown by a rule outside them or in one
// that applies on every screen, as before at-rules were read: shown by a
// desktop's rules too, the desktop-only contact boxes and tooltips of two
// WCXB articles (0290, 0334: −0.08 each) drew go-trafilatura away from
// the article.
//
// The wrappers are blanked out of the stylesheet's text instead of parsed
// apart: the prelude and its two braces become spaces, so the rules
// inside stand at the top level for ruleSpans and keep their offsets,
// which give the cascade its order.

// atRuleReach is how far an at-rule's block applies.
type atRuleReach int

const (
	reachNowhere    atRuleReach = iota // never on a screen, or not known
	reachSomewhere                     // on some screens (or perhaps)
	reachEverywhere                    // on every screen
)

// unwrapAtRules returns text with the at-rules that reach at least min
// blanked out, their content left in place, and the spans of the
// outermost ones blanked (from the prelude to the closing brace, or the
// end of an unclosed one), in order; nested ones are blanked only within
// blanked ones. Offsets in the result are offsets in text.
func unwrapAtRules(text string, min atRuleReach) (string, [][2]int) {
	if !strings.Contains(text, "@") {
		return text, nil
	}
	var out []byte
	var spans [][2]int
	var blanked []bool // the open blocks, whether each was blanked
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '{':
			start := strings.LastIndexAny(text[:i], "{};") + 1
			prelude := strings.TrimSpace(text[start:i])
			outer := len(blanked) == 0 || blanked[len(blanked)-1]
			blank := outer && strings.HasPrefix(prelude, "@") && atRuleReaches(prelude) >= min
			if blank {
				if out == nil {
					out = []byte(text)
				}
				for j := start; j <= i; j++ {
					out[j] = ' '
				}
				if len(blanked) == 0 {
					spans = append(spans, [2]int{start, len(text)})
				}
			}
			blanked = append(blanked, blank)
		case '}':
			if len(blanked) == 0 {
				continue
			}
			if blanked[len(blanked)-1] {
				out[i] = ' '
				if len(blanked) == 1 {
					spans[len(spans)-1][1] = i + 1
				}
			}
			blanked = blanked[:len(blanked)-1]
		}
	}
	if out == nil {
		return text, nil
	}
	return string(out), spans
}

// within reports whether offset at lies in one of spans (in order).
func within(spans [][2]int, at int) bool {
	i, _ := slices.BinarySearchFunc(spans, at, func(s [2]int, at int) int {
		switch {
		case s[1] <= at:
			return -1
		case s[0] > at:
			return 1
		}
		return 0
	})
	return i < len(spans) && spans[i][0] <= at && at < spans[i][1]
}

// atRuleReaches tells how far a block at-rule (its prelude, from "@"
// on) applies on screens.
func atRuleReaches(prelude string) atRuleReach {
	name, cond, _ := strings.Cut(asciiLower(prelude[1:]), " ")
	if i := strings.IndexByte(name, '('); i >= 0 { // "@media(min-width:0)"
		name, cond = name[:i], name[i:]+" "+cond
	}
	switch name {
	case "media":
		return mediaReach(cond)
	case "supports":
		// Every browser a reader uses supports what a page tests for;
		// only a negation can go either way.
		if strings.Contains(cond, "not") {
			return reachSomewhere
		}
		return reachEverywhere
	case "layer":
		return reachEverywhere
	case "container":
		return reachSomewhere
	}
	// @keyframes, @font-face, @starting-style (the first frame of a
	// transition), @page, @scope and the unknown: no rules for the screen.
	return reachNowhere
}

// viewports are the screens a media query is tried on: a small phone
// held upright and a large desktop.
var viewports = [][2]float64{{320, 568}, {1920, 1080}}

// mediaReach tells how far a media query list applies: every screen when
// one of its queries holds on every viewport, some when one may hold on
// one.
func mediaReach(list string) atRuleReach {
	reach := reachNowhere
	for _, query := range strings.Split(list, ",") {
		all, any := true, false
		for _, vp := range viewports {
			v := mediaQuery(strings.TrimSpace(query), vp)
			all = all && v == yes
			any = any || v != no
		}
		switch {
		case all:
			return reachEverywhere
		case any:
			reach = reachSomewhere
		}
	}
	return reach
}

// tri is a truth value that may not be known.
type tri int

const (
	no tri = iota
	maybe
	yes
)

func (t tri) not() tri { return yes - t }

func (t tri) and(u tri) tri { return min(t, u) }

// mediaQuery evaluates one media query ("not print", "screen and
// (min-width: 48rem)", "(width >= 600px)") on a viewport.
func mediaQuery(query string, vp [2]float64) tri {
	negate := false
	if rest, ok := strings.CutPrefix(query, "not "); ok {
		negate, query = true, rest
	}
	query = strings.TrimPrefix(query, "only ")
	result := yes
	for _, part := range strings.Split(query, " and ") {
		part = strings.TrimSpace(part)
		switch {
		case part == "" || part == "all" || part == "screen":
		case strings.HasPrefix(part, "("):
			result = result.and(mediaFeature(strings.Trim(part, "() "), vp))
		case part == "print" || part == "speech":
			result = no
		default:
			result = result.and(maybe) // "or", nested parentheses, other types
		}
	}
	if negate {
		return result.not()
	}
	return result
}

// mediaFeature evaluates the widths and heights of a media feature
// ("min-width: 600px", "width >= 48rem", "600px < width"); every other
// feature (orientation, hover, prefers-*) may or may not hold.
func mediaFeature(f string, vp [2]float64) tri {
	if name, value, ok := strings.Cut(f, ":"); ok {
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		limit, ok := cssPixels(value)
		size, dim := viewportSize(strings.TrimPrefix(strings.TrimPrefix(name, "min-"), "max-"), vp)
		if !ok || !dim {
			return maybe
		}
		switch {
		case strings.HasPrefix(name, "min-"):
			return truth(size >= limit)
		case strings.HasPrefix(name, "max-"):
			return truth(size <= limit)
		}
		return truth(size == limit)
	}
	for _, op := range []string{">=", "<=", ">", "<", "="} {
		left, right, ok := strings.Cut(f, op)
		if !ok {
			continue
		}
		left, right = strings.TrimSpace(left), strings.TrimSpace(right)
		if size, dim := viewportSize(left, vp); dim {
			if limit, ok := cssPixels(right); ok {
				return truth(compare(size, op, limit))
			}
		}
		if size, dim := viewportSize(right, vp); dim {
			if limit, ok := cssPixels(left); ok {
				return truth(compare(limit, op, size))
			}
		}
		return maybe
	}
	return maybe
}

func viewportSize(name string, vp [2]float64) (float64, bool) {
	switch name {
	case "width", "device-width":
		return vp[0], true
	case "height", "device-height":
		return vp[1], true
	}
	return 0, false
}

func compare(a float64, op string, b float64) bool {
	switch op {
	case ">=":
		return a >= b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case "<":
		return a < b
	}
	return a == b
}

func truth(b bool) tri {
	if b {
		return yes
	}
	return no
}

// cssPixels reads a length of a media query in pixels (an em being 16).
func cssPixels(value string) (float64, bool) {
	n, unit, ok := number(value)
	if !ok {
		return 0, false
	}
	switch unit {
	case "px", "":
		return n, true
	case "em", "rem":
		return n * 16, true
	}
	return 0, false
}
