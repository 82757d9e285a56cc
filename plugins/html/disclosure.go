package html

import (
	"strings"

	"golang.org/x/net/html"
)

// A disclosure (WAI-ARIA's pattern) is a button that shows and hides the
// content beside it: aria-expanded="false" says the content is collapsed,
// and when the button names no panel (aria-controls and the like,
// panels) the panel is the hidden element next to it. Amazon writes a
// book's description so, a "Read more" link with aria-expanded="false"
// in a row after the collapsed text, and the page lost the excerpt its
// truth holds (WCXB-dev 0613). disclosed returns those panels: for each
// control a reader sees, collapsed and naming no panel, the first hidden
// element before or after it, or before or after its parent or
// grandparent, among the element siblings there. Overlays stay closed as
// ever (a menu's button is a disclosure too), and so do panels of fewer
// than minDisclosedWords words or mostly links (isProsePanel).
func disclosed(root *html.Node) map[*html.Node]bool {
	found := map[*html.Node]bool{}
	byID := elementsByID(root)
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if isHidden(n) || unseenByStyle(n) {
				return // a control nobody sees opens nothing
			}
			if isCollapsedDisclosure(n) && showsItself(n, byID) {
				if panel := besideDisclosure(n); panel != nil && !isOverlay(panel) && isProsePanel(panel) {
					found[panel] = true
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return found
}

// unseenByStyle reports whether n's inline style hides it or makes it
// invisible (opacity:0, coloured as its background, boxed to nothing):
// a button an outside check made invisible so opened a panel of
// instructions no reader could open.
func unseenByStyle(n *html.Node) bool {
	style := attr(n, "style")
	if style == "" {
		return false
	}
	d := cssDeclarations(style)
	return hiddenStyle.MatchString(normalizeCSS(style)) || invisibleStyle(style) ||
		isZero(d["width"]) && isZero(d["height"]) && overflowHidden(d)
}

// minDisclosedWords is the fewest words a disclosed panel holds.
const minDisclosedWords = 20

// isProsePanel reports whether a panel holds minDisclosedWords words or
// more, most of them outside links: a quiz beside its launcher, three
// answer buttons and "Introduce me to your friend" (WCXB-dev 4474), is
// no text to read.
func isProsePanel(n *html.Node) bool {
	total, linked := linkedWords(n)
	return total >= minDisclosedWords && linked*2 < total
}

// isCollapsedDisclosure reports whether n is a control that says it has
// collapsed content and names no panel.
func isCollapsedDisclosure(n *html.Node) bool {
	if !strings.EqualFold(strings.TrimSpace(attr(n, "aria-expanded")), "false") {
		return false
	}
	for _, key := range []string{"aria-controls", "data-target", "data-bs-target", "data-panel-id", "aria-haspopup"} {
		if hasAttr(n, key) {
			return false
		}
	}
	return true
}

// besideDisclosure returns the hidden element next to a control, or to
// its parent or grandparent, or nil.
func besideDisclosure(control *html.Node) *html.Node {
	for n, level := control, 0; n != nil && n.Type == html.ElementNode && level < 3; n, level = n.Parent, level+1 {
		for _, s := range []*html.Node{elementBefore(n), elementAfter(n)} {
			if s != nil && hiddenAsPanel(s) {
				return s
			}
		}
	}
	return nil
}

// hiddenAsPanel reports whether n is hidden the way a collapsed panel is:
// the hidden attribute or an inline display:none.
func hiddenAsPanel(n *html.Node) bool {
	return hasAttr(n, "hidden") || strings.Contains(normalizeCSS(attr(n, "style")), "display:none")
}
