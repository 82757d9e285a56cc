package visibility

import (
	"strings"

	"github.com/andybalholm/cascadia"
)

// precedence is what places a rule's declaration in the cascade: its
// importance, whether it stands in a cascade layer, its selector's
// specificity and its order in the page's sheets.
type precedence struct {
	important bool
	layered   bool
	spec      cascadia.Specificity
	order     int
}

// outranks reports whether a declaration of precedence p wins over one of
// q for the same property of the same element: an !important one first;
// then, between normal declarations, one outside cascade layers over one
// inside them (between important ones, the other way round); then the
// more specific; then the later. Layers are not told apart from each
// other.
func (p precedence) outranks(q precedence) bool {
	if p.important != q.important {
		return p.important
	}
	if p.layered != q.layered {
		return p.layered == p.important
	}
	if p.spec != q.spec {
		return q.spec.Less(p.spec)
	}
	return p.order > q.order
}

// precedenceOf returns the precedence of rule under its k-th selector,
// sel.
func (r *Rules) precedenceOf(rule declared, k int, sel cascadia.Sel) precedence {
	return precedence{important: rule.important, layered: r.inLayer(rule.order), spec: specificity(rule.origins[k], sel), order: rule.order}
}

// specificity returns the specificity of sel, written out from origin:
// what stands in a :where() counts for nothing (".prose :where(p)" is as
// specific as ".prose", ":where(.t)" as "*"), though written out it is a
// selector of its own.
func specificity(origin string, sel cascadia.Sel) cascadia.Specificity {
	lower := asciiLower(origin)
	if !strings.Contains(lower, ":where(") {
		return sel.Specificity()
	}
	for {
		i := strings.Index(lower, ":where(")
		if i < 0 {
			break
		}
		end := closingParen(lower, i+len(":where("))
		if end < 0 {
			return sel.Specificity()
		}
		lower = lower[:i] + lower[end+1:]
	}
	rest := strings.Trim(lower, " >+~")
	if rest == "" {
		return cascadia.Specificity{}
	}
	if s, ok := parseSelector(rest); ok {
		return s.Specificity()
	}
	return sel.Specificity()
}

// inLayer reports whether the rule at order (its sheet's index << 32 | its
// offset there) stands inside an @layer block.
func (r *Rules) inLayer(order int) bool {
	sheet, at := order>>32, order&(1<<32-1)
	if sheet >= len(r.raw) {
		return false
	}
	// A rule's span starts after the block before it, whose closing
	// brace may be a blanked at-rule's: its selector is what stands in
	// the layer.
	for at < len(r.sheets[sheet]) && strings.ContainsRune(" \t\r\n\f", rune(r.sheets[sheet][at])) {
		at++
	}
	if r.layers == nil {
		r.layers = make([][][2]int, len(r.raw))
		for i, raw := range r.raw {
			r.layers[i] = layerBlocks(asciiLower(raw))
		}
	}
	for _, span := range r.layers[sheet] {
		if span[0] <= at && at < span[1] {
			return true
		}
	}
	return false
}

// layerBlocks returns the spans of a lower-cased sheet's @layer blocks,
// from the at-keyword to the closing brace (or the end of an unclosed
// one); a statement naming layers ("@layer a, b;") has none.
func layerBlocks(lower string) [][2]int {
	var spans [][2]int
	for from := 0; ; {
		i := strings.Index(lower[from:], "@layer")
		if i < 0 {
			return spans
		}
		start := from + i
		open := strings.IndexAny(lower[start:], "{;")
		if open < 0 {
			return spans
		}
		open += start
		if lower[open] == ';' {
			from = open
			continue
		}
		end, depth := open, 0
		for ; end < len(lower); end++ {
			if lower[end] == '{' {
				depth++
			} else if lower[end] == '}' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		spans = append(spans, [2]int{start, min(end+1, len(lower))})
		from = min(end+1, len(lower))
	}
}
