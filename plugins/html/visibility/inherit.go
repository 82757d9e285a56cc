package visibility

import (
	"maps"
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/siftd/sift/plugins/html/internal/dom"
	"golang.org/x/net/html"
)

// Custom properties inherit: ":root { --gone: none }" and, anywhere
// below, ".hint { display: var(--gone) }" or style="opacity: var(--o)"
// under an element whose style sets --o: 0, hide as if written out. A rule
// or style whose var() names a property its own declarations do not set
// is read again for each element it would hide, with the value that
// element inherits: set on it or on its nearest ancestor that sets it, by
// an inline style or a rule of the page's stylesheets.

// hidingProperties are the properties hidingDecls reads.
var hidingProperties = map[string]bool{
	"display": true, "visibility": true, "opacity": true, "font": true, "font-size": true,
	"color": true, "background": true, "background-color": true, "filter": true,
	"transform": true, "scale": true, "translate": true, "clip": true, "clip-path": true,
	"text-indent": true, "height": true, "max-height": true, "line-height": true,
	"overflow": true, "overflow-x": true, "overflow-y": true, "content-visibility": true,
	"position": true, "left": true, "top": true,
}

// inheritsVars reports whether a declaration of decls that hidingDecls
// reads, written as the page wrote it, reads a custom property decls do
// not set.
func inheritsVars(decls map[string]string) bool {
	for name, value := range decls {
		if !hidingProperties[name] {
			continue
		}
		for rest := value; ; {
			i := strings.Index(rest, "var(--")
			if i < 0 {
				break
			}
			rest = rest[i+len("var("):]
			ref := rest[:strings.IndexAny(rest+")", ",)")]
			if _, ok := decls[ref]; !ok {
				return true
			}
		}
	}
	return false
}

// hidingDecls reports whether declarations make their element's text
// invisible, and whether they do it by display:none or visibility:hidden,
// which a rule that shows the element may undo.
func hidingDecls(d map[string]string) (hidden, folds bool) {
	if invisibleDecls(d) {
		return true, false
	}
	if d["display"] == "none" || d["visibility"] == "hidden" || d["visibility"] == "collapse" {
		return true, true
	}
	return false, false
}

// hidesAsInherited reports whether declarations written as the page wrote
// them (var() unresolved) hide n once each custom property takes the
// value n inherits, and whether they fold.
func (r *Rules) hidesAsInherited(n *html.Node, written map[string]string) (hidden, folds bool) {
	decls := maps.Clone(written)
	resolveVars(decls, func(name string) (string, bool) { return r.inheritedVar(n, name) })
	return hidingDecls(decls)
}

// varSetting is a rule of the page's stylesheets that sets a custom
// property.
type varSetting struct {
	sel cascadia.Sel
	precedence
	value string
}

// inherited is a custom property's value on an element, as found.
type inherited struct {
	value string
	set   bool
}

// inheritedVar returns the value of the custom property name on n: set on
// n or on its nearest ancestor that sets it. Each element's answer is kept
// for the page, so that a deep page with many such elements walks each
// ancestor once per property.
func (r *Rules) inheritedVar(n *html.Node, name string) (string, bool) {
	if r.varsOn == nil {
		r.varsOn = map[string]map[*html.Node]inherited{}
	}
	memo := r.varsOn[name]
	if memo == nil {
		memo = map[*html.Node]inherited{}
		r.varsOn[name] = memo
	}
	var found inherited
	var path []*html.Node
	for a := n; a != nil; a = a.Parent {
		if got, ok := memo[a]; ok {
			found = got
			break
		}
		path = append(path, a)
		if a.Type != html.ElementNode {
			continue
		}
		if value, ok := r.setOn(a, name); ok {
			found = inherited{value, true}
			break
		}
	}
	for _, a := range path {
		memo[a] = found
	}
	// Each value kept weighs as a match: a chain of custom properties set
	// again on thousands of elements kept millions, and ran the plugin
	// out of memory.
	r.cost += len(path) * costPerKeptValue
	return found.value, found.set
}

// costPerKeptValue is what inheritedVar counts against maxMatchCost for
// each element's value it keeps: fifty million of cost is two million
// values kept, some hundred megabytes.
const costPerKeptValue = 25

// setOn returns the value element n's own style or the stylesheets' rules
// give the custom property name, the style winning as in a browser.
func (r *Rules) setOn(n *html.Node, name string) (string, bool) {
	if style := dom.Attr(n, "style"); strings.Contains(asciiLower(style), name) {
		if value, ok := declaredAs(style)[name]; ok {
			return value, true
		}
	}
	var best *varSetting
	for i, s := range r.varSettings(name) {
		if !r.match(s.sel, n) {
			continue
		}
		if best == nil || s.outranks(best.precedence) {
			best = &r.settings[name][i]
		}
	}
	if best == nil {
		return "", false
	}
	return best.value, true
}

// varSettings returns the rules of the stylesheets, outside at-rules but
// those that apply on every screen, that set the custom property name,
// read on the first element that needs them.
func (r *Rules) varSettings(name string) []varSetting {
	if got, ok := r.settings[name]; ok {
		return got
	}
	var found []varSetting
	declaringRules(r.sheets, r.lower, []string{name}, setsProperty, func(rule declared) {
		value, set := rule.raw[name]
		if !set {
			return
		}
		for k, text := range rule.selectors {
			if sel, ok := parseSelector(text); ok {
				found = append(found, varSetting{sel: sel, precedence: r.precedenceOf(rule, k, sel), value: value})
			}
		}
	})
	if r.settings == nil {
		r.settings = map[string][]varSetting{}
	}
	r.settings[name] = found
	return found
}

// setsProperty reports whether text[i:] (lower-cased) declares the
// custom property name: the whole name, then a colon.
func setsProperty(text string, i int, name string) bool {
	if i > 0 && isNameByte(text[i-1]) {
		return false
	}
	rest := text[i+len(name):]
	if rest != "" && isNameByte(rest[0]) {
		return false
	}
	return strings.HasPrefix(strings.TrimLeft(rest, " \t\r\n"), ":")
}

// inlineHidesAsInherited reports whether n's inline style, which
// InvisibleStyle read with no custom property but its own, hides n with
// the ones it inherits (style="display: var(--h)" under --h: none).
func (r *Rules) inlineHidesAsInherited(n *html.Node, style string) bool {
	if !strings.Contains(style, "var(") {
		return false
	}
	written := declaredAs(style)
	if !inheritsVars(written) {
		return false
	}
	hidden, _ := r.hidesAsInherited(n, written)
	return hidden
}
