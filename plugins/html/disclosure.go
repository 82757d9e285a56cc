package html

import (
	"strings"

	"github.com/siftd/sift/plugins/html/visibility"
	"golang.org/x/net/html"
)

// A disclosure (WAI-ARIA's pattern) is a button that shows and hides the
// content beside it: aria-expanded="false" says the content is collapsed,
// and when the button names no panel (aria-controls and the like,
// panels) the panel is the hidden element next to it. Amazon writes a
// book's description so, a "Read more" link with aria-expanded="false"
// in a row after the collapsed text, and the page lost the excerpt its
// truth holds (WCXB-dev 0613). disclosedBy returns the panel of n, a
// control a reader sees (panels walks them, hidden.go), when n is
// collapsed and names no panel: the first hidden element before or after
// it, or before or after its parent or grandparent, among the element
// siblings there. Overlays stay closed as
// ever (a menu's button is a disclosure too), and so do panels of fewer
// than minDisclosedWords words or mostly links (isProsePanel).
func disclosedBy(n *html.Node, byID map[string]*html.Node) *html.Node {
	if !isCollapsedDisclosure(n) || !showsItself(n, byID) {
		return nil
	}
	if panel := besideDisclosure(n); panel != nil && !isOverlay(panel) && isProsePanel(panel) {
		return panel
	}
	return nil
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
	if hidesByStyle(visibility.NormalizeCSS(style)) || visibility.InvisibleStyle(style) {
		return true
	}
	// panels walks every element a reader sees: a style is parsed once
	// more only when it sets a width and a height.
	if lower := strings.ToLower(style); !strings.Contains(lower, "width") || !strings.Contains(lower, "height") {
		return false
	}
	d := visibility.Declarations(style)
	return visibility.IsZero(d["width"]) && visibility.IsZero(d["height"]) && visibility.OverflowHidden(d)
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
	return hasAttr(n, "hidden") || strings.Contains(visibility.NormalizeCSS(attr(n, "style")), "display:none")
}
