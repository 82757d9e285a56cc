package visibility

import (
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/siftd/sift/plugins/html/internal/dom"
	"golang.org/x/net/html"
)

// Text coloured as what lies behind it is invisible though no declaration
// of its own says so: <font color="#fff"> on a page whose body is white,
// style="color: #222" inside a box whose style paints it #222. What lies
// behind an element is the background its nearest painted ancestor
// declares, in its style or its bgcolor attribute, else the one the
// stylesheets give the page's <body> or <html>. A page whose stylesheets
// paint an element in between (a dark band by class) is believed: the
// text is on that band, and stays. So is any element in between that has
// a class or an id, which a stylesheet sift does not fetch may paint or
// lay over a picture: on the benchmark's pages, white titles over
// thumbnails, teaser cards and footer links coloured as a body or a
// wrapper they do not lie on. A page's default white is never assumed.

// ownColor returns the colour n's own markup gives its text, <font
// color> or its style's color, as canonicalColor writes it, or "".
func (r *Rules) ownColor(n *html.Node) string {
	if n.Data == "font" {
		if c := strings.TrimSpace(dom.Attr(n, "color")); c != "" {
			return canonicalColor(asciiLower(c))
		}
	}
	if c := r.styleOf(n, "color")["color"]; c != "" {
		return canonicalColor(c)
	}
	return ""
}

// styleOf returns n's inline style, the blanks in each value kept as one
// space ("rgb(255 255 255)", which Declarations writes "rgb(255255255)")
// and each var() written as the custom property n's style sets or n inherits
// (style="color: var(--paper)" under :root { --paper: #fff }), or nil
// when the style does not name property.
func (r *Rules) styleOf(n *html.Node, property string) map[string]string {
	style := dom.Attr(n, "style")
	if !strings.Contains(asciiLower(style), property) {
		return nil
	}
	decls := parseDeclarations(style, spacedValue)
	resolveVars(decls, func(name string) (string, bool) { return r.inheritedVar(n, name) })
	return decls
}

// paintedAs reports whether the colour of n's text, c, is the colour
// behind it, and no element inside n shows its text in another.
func (r *Rules) paintedAs(n *html.Node, c string) bool {
	if r.ownBackground(n) != "" {
		return false // on its own background, which invisibleDecls compares
	}
	behind, at := r.backdrop(n)
	if behind == "" {
		behind, at = r.pageBackdrop(), nil
	}
	if behind == "" && r.complete {
		behind = white
	}
	if behind != c {
		return false
	}
	for e := n; e != nil && e != at; e = e.Parent {
		if e.Type != html.ElementNode || at == nil && (e.Data == "body" || e.Data == "html") {
			continue
		}
		if !r.complete && (dom.Attr(e, "class") != "" || dom.Attr(e, "id") != "") || r.paintedBySheet(e) {
			return false
		}
	}
	return !r.recoloured(n, c)
}

// recoloured reports whether an element inside n shows its text in a
// colour other than c: its own, one the stylesheets give it, a
// background of its own, or the browser's colours for links, marks and
// controls.
func (r *Rules) recoloured(n *html.Node, c string) bool {
	for d := range n.Descendants() {
		if d.Type != html.ElementNode {
			continue
		}
		switch d.Data {
		case "mark", "button", "input", "select", "textarea":
			return true
		case "a":
			if dom.HasAttr(d, "href") {
				return true
			}
		}
		own := r.ownColor(d)
		if own == "" {
			own = r.cascadedColour(d)
		}
		if own != "" && own != c || r.ownBackground(d) != "" || r.paintedBySheet(d) {
			return true
		}
	}
	return false
}

// painted is the background found behind an element: its colour and the
// ancestor that declares it.
type painted struct {
	colour string
	at     *html.Node
}

// backdrop returns the background colour n's nearest ancestor declares in
// its style or bgcolor attribute, as canonicalColor writes it, and that
// ancestor; "" when none does. An image or a gradient is a background
// too, whose colour matches none. Each element's answer is kept for the
// page.
func (r *Rules) backdrop(n *html.Node) (string, *html.Node) {
	if r.backdrops == nil {
		r.backdrops = map[*html.Node]painted{}
	}
	var found painted
	var path []*html.Node
	for a := n.Parent; a != nil && a.Type == html.ElementNode; a = a.Parent {
		if got, ok := r.backdrops[a]; ok {
			found = got
			break
		}
		path = append(path, a)
		if c := r.ownBackground(a); c != "" {
			found = painted{c, a}
			// a is its own answer's start: what lies behind a's children
			path = path[:len(path)-1]
			break
		}
	}
	for _, a := range path {
		r.backdrops[a] = found
	}
	return found.colour, found.at
}

// ownBackground returns the background n's style or bgcolor attribute
// declares, or "" for none, transparent or one that defers to its parent.
func (r *Rules) ownBackground(n *html.Node) string {
	c := background(r.styleOf(n, "background"))
	if c == "" {
		c = asciiLower(strings.TrimSpace(dom.Attr(n, "bgcolor")))
	}
	if noBackground(c) {
		return ""
	}
	return canonicalColor(c)
}

// noBackground reports whether a declared background lets the parent's
// show through.
func noBackground(c string) bool {
	switch c {
	case "", "transparent", "none", "inherit", "initial", "unset", "currentcolor":
		return true
	}
	return false
}

// sheetPaint is a rule of the page's stylesheets that gives elements a
// background.
type sheetPaint struct {
	sel    cascadia.Sel
	colour string
	page   bool // its selector is body or html
}

// pageBackdrop returns the background colour the stylesheets give the
// page's <body> or <html>, or "".
func (r *Rules) pageBackdrop() string {
	colour := ""
	for _, p := range r.paints() {
		if p.page {
			colour = p.colour
		}
	}
	return colour
}

// paintedBySheet reports whether a rule of the stylesheets gives n a
// background.
func (r *Rules) paintedBySheet(n *html.Node) bool {
	for _, p := range r.paints() {
		if r.match(p.sel, n) {
			return true
		}
	}
	return false
}

// paints returns the rules of the stylesheets, outside at-rules but those
// that apply on every screen, that give elements a background, read once
// for the page when first needed.
func (r *Rules) paints() []sheetPaint {
	if r.painted {
		return r.paintRules
	}
	r.painted = true
	startsName := func(text string, i int, _ string) bool { return i == 0 || !isNameByte(text[i-1]) }
	declaringRules(r.sheets, r.lower, []string{"background"}, startsName, func(rule declared) {
		colour := background(rule.decls)
		if noBackground(colour) {
			return
		}
		for _, text := range rule.selectors {
			if sel, ok := parseSelector(text); ok {
				page := asciiLower(strings.TrimSpace(text))
				r.paintRules = append(r.paintRules, sheetPaint{sel: sel, colour: canonicalColor(colour), page: page == "body" || page == "html"})
			}
		}
	})
	return r.paintRules
}
