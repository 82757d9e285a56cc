package visibility

import (
	"github.com/andybalholm/cascadia"
	"github.com/siftd/sift/plugins/html/internal/dom"
	"golang.org/x/net/html"
)

// outOfFlow are the positions that lift an element out of the flow, so
// that it may lie behind (or over) the text beside it.
var outOfFlow = map[string]bool{"absolute": true, "fixed": true}

// position returns the position n's style or a rule of the stylesheets
// gives it ("absolute", "relative", …), out of the flow first, or "".
func (r *Rules) position(n *html.Node) string {
	if style := dom.Attr(n, "style"); style != "" {
		if p := Declarations(style)["position"]; p != "" {
			return p
		}
	}
	rules, found := r.placing(), ""
	r.placedIndex.each(n, func(i int) bool {
		if (found == "" || outOfFlow[rules[i].position]) && r.match(rules[i].sel, n) {
			found = rules[i].position
		}
		return !outOfFlow[found]
	})
	return found
}

// placedRule is a rule of the stylesheets that positions elements.
type placedRule struct {
	sel      cascadia.Sel
	position string
}

// placing returns the rules of the stylesheets that position elements,
// read once for the page when first needed.
func (r *Rules) placing() []placedRule {
	if r.placedRead {
		return r.placedRules
	}
	r.placedRead = true
	declaringRules(r.sheets, r.lower, []string{"position"}, startsProperty, func(rule declared) {
		position := rule.decls["position"]
		if position == "" || position == "static" {
			return
		}
		for _, text := range rule.selectors {
			if sel, ok := parseSelector(text); ok {
				r.placedIndex.add(len(r.placedRules), text)
				r.placedRules = append(r.placedRules, placedRule{sel: sel, position: position})
			}
		}
	})
	return r.placedRules
}
