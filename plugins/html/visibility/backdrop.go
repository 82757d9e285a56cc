package visibility

import (
	"strings"

	"github.com/siftd/sift/plugins/html/internal/dom"
	"golang.org/x/net/html"
)

// Text coloured as what lies behind it is invisible though no declaration
// of its own says so: <font color="#fff"> on a page whose body is white,
// style="color: #222" inside a box whose style paints it #222. What lies
// behind an element is the background its nearest painted ancestor
// declares, in its style or its bgcolor attribute, else the one the
// stylesheets give the page's <body> or <html> (paints.go). A page whose
// stylesheets paint an element in between (a dark band by class), lay a
// shadow, a stroke, a blend or a filter over the text, or place a picture
// or a painted box out of the flow beside it is believed: the text is on
// that band, and stays. On a page
// that links a stylesheet sift does not read, so is any element in
// between that has a class or an id, which that stylesheet may paint or
// lay over a picture: on the benchmark's pages, white titles over
// thumbnails, teaser cards and footer links coloured as a body or a
// wrapper they do not lie on. There a page's default white is never
// assumed; on a page whose whole CSS is its own, it is, unless the page
// asks for a dark colour scheme.

// ownColor returns the colour n's own markup gives its text, <font
// color> or its style's color, as canonicalColor writes it, or "", and
// whether the style says !important.
func (r *Rules) ownColor(n *html.Node) (string, bool) {
	if c := textColourOf(r.styleOf(n, "color")); c != "" {
		return canonicalColor(c), strings.HasSuffix(c, "important")
	}
	if n.Data == "font" {
		if c := strings.TrimSpace(dom.Attr(n, "color")); c != "" {
			return canonicalColor(legacyColour(asciiLower(c))), false
		}
	}
	return "", false
}

// legacyColour writes a colour attribute's six or three hex digits
// without their "#" with it, as browsers read <font color="ffffff">.
func legacyColour(c string) string {
	if len(c) != 3 && len(c) != 6 || strings.Trim(c, "0123456789abcdef") != "" {
		return c
	}
	return "#" + c
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
	if own := r.elementBackground(n); own != "" {
		// On its own background: a text coloured as it, whose effects
		// and insides show nothing else.
		return alike(own, c) && !r.ownEffect(n) && !r.effectBySheet(n) && !r.recoloured(n, c)
	}
	behind, at := r.backdrop(n)
	if behind == "" {
		behind, at = r.pageBackdrop(), nil
	}
	if behind == "" && r.complete && !r.darkScheme {
		behind = white
	}
	if !alike(behind, c) {
		return false
	}
	for e := n; e != nil && e != at; e = e.Parent {
		if e.Type != html.ElementNode || at == nil && (e.Data == "body" || e.Data == "html") {
			continue
		}
		if !r.complete && (dom.Attr(e, "class") != "" || dom.Attr(e, "id") != "") ||
			r.paintedBySheet(e) || r.ownEffect(e) || r.complete && r.besidePicture(e) {
			return false
		}
	}
	return !r.recoloured(n, c)
}

// inherits reports whether a colour value takes the parent's.
func inherits(c string) bool {
	switch c {
	case "inherit", "currentcolor", "unset":
		return true
	}
	return false
}

// pictures are the elements that show a picture a text may be laid over.
var pictures = map[string]bool{"img": true, "picture": true, "video": true, "canvas": true, "svg": true, "iframe": true, "object": true, "embed": true}

// besidePicture reports whether a sibling of e lays a picture or a
// background where e's text may stand: an element placed out of the flow
// (position absolute or fixed) that is, or holds, a picture or a painted
// box (a hero's <img> placed under its heading, a cover block's painted
// span, a card's thumbnail under its caption). A picture in the flow
// stands above or below the text, not behind it. Each parent's answer is
// kept: the siblings of a long list are read once, not once for each.
func (r *Rules) besidePicture(e *html.Node) bool {
	if r.pictured == nil {
		r.pictured = map[*html.Node][]*html.Node{}
	}
	under, ok := r.pictured[e.Parent]
	if !ok {
		for s := e.Parent.FirstChild; s != nil; s = s.NextSibling {
			if s.Type == html.ElementNode && r.laysPicture(s, false, 3) {
				under = append(under, s)
			}
		}
		r.pictured[e.Parent] = under
	}
	for _, s := range under {
		if s != e {
			return true
		}
	}
	return false
}

// laysPicture reports whether n, or an element under it to depth levels,
// is a picture or a painted box placed out of the flow, by itself or by
// an element around it (placed), and not inside a positioned box of its
// own.
func (r *Rules) laysPicture(n *html.Node, placed bool, depth int) bool {
	switch position := r.position(n); {
	case outOfFlow[position]:
		placed = true
	case position != "" && position != "static" && !placed:
		// a box its placed elements are laid in: they cover it, not the
		// text beside it (a responsive video's frame in its wrapper)
		return false
	}
	if placed && (pictures[n.Data] || r.ownBackground(n) != "" || r.paintedBySheet(n)) {
		return true
	}
	if depth == 0 {
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && r.laysPicture(c, placed, depth-1) {
			return true
		}
	}
	return false
}

// recoloured reports whether an element inside n shows its text in a
// colour other than c: its own, one the stylesheets give it, a
// background of its own of another colour, an effect, or the browser's
// colours for links, marks and controls.
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
		own, _ := r.ownColor(d)
		if own == "" {
			own = r.cascadedColour(d)
		}
		if own != "" && !alike(own, c) && !inherits(own) || r.ownEffect(d) {
			return true
		}
		if bg := r.ownBackground(d); bg != "" && !alike(bg, c) {
			return true
		}
		if r.paintedBySheet(d) && (!r.complete || !alike(r.winningBackground(d), c) || r.effectBySheet(d)) {
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
// its style or bgcolor attribute (or, on a complete page, the stylesheets
// give it), as canonicalColor writes it, and that ancestor; "" when none
// does. An image or a gradient is a background
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
		if c := r.elementBackground(a); c != "" {
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
	d := r.styleOf(n, "background")
	c := background(d)
	if noBackground(c) && !noBackground(d["background-image"]) {
		c = unknownPaint // a picture or a gradient, whose colour matches none
	}
	if c == "" {
		c = legacyColour(asciiLower(strings.TrimSpace(dom.Attr(n, "bgcolor"))))
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
