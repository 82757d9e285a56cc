package html

import (
	"regexp"
	"strings"

	"github.com/siftd/sift/plugins/html/visibility"
	"github.com/siftd/sift/plugins/sdk"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Pages hide instructions for agents where a human reader cannot see them.
// removeHidden drops every element a reader cannot see, and comments: the
// hidden attribute, aria-hidden="true", <template>, hidden inputs, utility classes
// that hide by convention, and inline styles that hide an element or move it
// off-screen.
//
// The other ways CSS makes text invisible (opacity:0, font-size:0, a zero
// height, …), inline or in the page's own <style> rules, fold tabs and
// animate content in as often as they hide: invisible.go removes what they
// hide only when it is less than what stays visible. <noscript> has its
// own rule (noscript.go).

// hidesByStyle reports whether a normalized inline style (NormalizeCSS)
// hides its element or moves it far off-screen (hiddenStyle). The
// pattern is tried only on a style holding one of the strings it needs:
// it ran on every styled element of every page, a tenth of sift's own
// time on Readability's test pages.
func hidesByStyle(style string) bool {
	for _, needed := range hiddenStyleStrings {
		if strings.Contains(style, needed) {
			return hiddenStyle.MatchString(style)
		}
	}
	return false
}

// hiddenStyleStrings are the strings one of which a style hiddenStyle
// matches holds.
var hiddenStyleStrings = []string{"display:none", "visibility:hidden", "visibility:collapse", "clip:rect",
	"left:-", "top:-", "right:-", "bottom:-", "indent:-"}

// hiddenStyle matches inline declarations that hide an element or move it
// far off-screen.
var hiddenStyle = regexp.MustCompile(
	`display:none|visibility:(hidden|collapse)|` +
		`(left|top|right|bottom|text-indent|margin-left|margin-top):-\d{4,}(\.\d+)?(px|pt)?(;|$|!)|` +
		`(left|top|right|bottom|text-indent|margin-left|margin-top):-\d{3,}(\.\d+)?(em|rem|vw|vh)(;|$|!)|` +
		`clip:rect\(0(px)?,?0(px)?,?0(px)?,?0(px)?\)`)

// hiddenClasses are utility classes that hide by convention (Bootstrap,
// Tailwind, WordPress screen-reader text).
var hiddenClasses = map[string]bool{
	"hidden": true, "d-none": true, "sr-only": true, "visually-hidden": true,
	"visuallyhidden": true, "screen-reader-text": true, "invisible": true,
	// shown only on paper: Bootstrap 3, Foundation, MediaWiki's footer
	// ("Retrieved from …"), a print run's header and footer
	"print-only": true, "printonly": true, "visible-print": true, "visible-print-block": true,
	"visible-print-inline": true, "visible-print-inline-block": true, "show-for-print": true,
	"printfooter": true, "print-header": true, "print-footer": true,
}

func removeHidden(root *html.Node) error { return removeHiddenWith(root, nil) }

// removeHiddenWith is removeHidden with the ablation benchmark's switches
// for the rules that open or close what is hidden (cloaks, panels, menus).
// A page whose styles cost too much to read is refused, as a TooLarge
// DocError: read without them, it would be read with what they hide.
func removeHiddenWith(root *html.Node, r *rules) error {
	visibility.UnescapeStyles(root) // `disp\lay: none` hides as display: none does
	h := hiding{pageWords: words(root), tabs: visibleTabs(root), classes: visibility.HiddenClasses(root), rules: r}
	h.panels, h.disclosed = panels(root, r.on("disclosures"))
	invisible, err := visibility.InvisibleNodes(root, visibility.PageRules(root), h.pageWords, words)
	if err != nil {
		return sdk.TooLarge("%v", err)
	}
	h.invisible = invisible
	if r.on("tablabels") {
		h.tabs.labels = labelTabCode(root, h.hides, h.keepsCode)
		r.note("tablabels", len(h.tabs.labels) > 0)
	}
	h.drop(root)
	return nil
}

// hiding is what removeHidden knows of the page.
type hiding struct {
	pageWords int
	panels    map[string]bool
	// disclosed are the hidden elements beside a collapsed disclosure
	// button that names none (disclosure.go): panels too.
	disclosed map[*html.Node]bool
	// tabs are the page's visible tabs, whose hidden panels keep their
	// code blocks (tabs.go).
	tabs tabs
	// classes are those the page's own stylesheets hide (stylesheet.go).
	classes map[string]bool
	// invisible are the elements whose text CSS makes invisible in other
	// ways than hiding them (invisible.go), when they are to go.
	invisible map[*html.Node]bool
	rules     *rules
}

// hidden reports whether c is hidden from readers for good: not a cloak,
// and not a panel that a visible control opens, or the hidden wrapper of
// one (which it opens). A menu or dropdown that a control opens goes
// whether it is hidden or not: a stylesheet keeps it shut until the click
// (a book's "Chapters ▾" table of contents came ahead of the chapter), and
// opened it lies over the page rather than in it.
func (h hiding) hidden(c *html.Node) bool {
	if h.rules.on("menus") && h.isPanel(c) && isMenu(c) {
		h.rules.note("menus", true)
		return true
	}
	if !isHidden(c) && !h.hasHiddenClass(c) && !h.invisible[c] {
		return false
	}
	if h.rules.on("cloaks") && isCloak(c, h.pageWords) {
		h.rules.note("cloaks", true)
		return false
	}
	if h.rules.on("panels") && (h.isPanel(c) || h.wrapsPanel(c)) && !isOverlay(c) {
		h.rules.note("panels", true)
		openPanel(c)
		return false
	}
	return true
}

// hides reports whether e is hidden, by itself, a class the page hides
// or CSS that makes it invisible, whether a rule opens it or not.
func (h hiding) hides(e *html.Node) bool {
	return isHidden(e) || h.hasHiddenClass(e) || h.invisible[e]
}

// keepsCode reports whether the code blocks of p, a tab panel, reach
// the content: p and the elements around it are shown, opened as
// panels, or p is a hidden panel of a visible tab, which keeps its code.
func (h hiding) keepsCode(p *html.Node) bool {
	for n := p; n != nil && n.Type == html.ElementNode; n = n.Parent {
		switch {
		case !h.hides(n):
		case h.rules.on("panels") && (h.isPanel(n) || h.wrapsPanel(n)) && !isOverlay(n):
		case n == p && h.rules.on("tabcode") && h.tabs.ofVisibleTab(n):
		default:
			return false
		}
	}
	return true
}

// hasHiddenClass reports whether c has a class the page hides.
func (h hiding) hasHiddenClass(c *html.Node) bool {
	return h.classes != nil && hasClassIn(attr(c, "class"), h.classes)
}

// hasClassIn reports whether one of the classes in a class attribute's
// value is in set, which holds lower-cased names.
func hasClassIn(value string, set map[string]bool) bool {
	for class := range strings.FieldsSeq(value) { // no slice: it is asked of every element
		if set[strings.ToLower(class)] {
			return true
		}
	}
	return false
}

func (h hiding) isPanel(n *html.Node) bool {
	if h.disclosed[n] {
		h.rules.note("disclosures", true)
		return true
	}
	id := attr(n, "id")
	return id != "" && h.panels[id]
}

// wrapsPanel reports whether a child of n is a panel. Accordions (Chakra's
// collapse) hide a wrapper around the panel the control names, and open
// both with a click: a product page's description and dimensions were lost
// without this.
func (h hiding) wrapsPanel(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && h.isPanel(c) {
			return true
		}
	}
	return false
}

func (h hiding) drop(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		// Comments are hidden text too.
		if c.Type == html.CommentNode || c.Type == html.ElementNode && h.hidden(c) {
			h.keepTabCode(n, c)
			prev := c.PrevSibling
			n.RemoveChild(c)
			// The text on both sides is one text node again, as it was before
			// the comment or element came between (React puts <!-- -->
			// between the parts of a sentence). Left as two neighbouring
			// text nodes, go-trafilatura chose another region on a
			// news page and kept a photo gallery with the article.
			if prev != nil && next != nil && prev.Type == html.TextNode && next.Type == html.TextNode {
				prev.Data += next.Data
				after := next.NextSibling
				n.RemoveChild(next)
				next = after
			}
		} else {
			h.drop(c)
		}
		c = next
	}
}

// keepTabCode moves the code blocks of c, a hidden panel of a visible
// tab, ahead of it in n, with what is hidden in them dropped (tabs.go).
func (h hiding) keepTabCode(n, c *html.Node) {
	if c.Type != html.ElementNode || !h.rules.on("tabcode") {
		return
	}
	blocks := h.tabs.tabCode(c, h.hides)
	h.rules.note("tabcode", len(blocks) > 0)
	for _, pre := range blocks {
		pre.Parent.RemoveChild(pre)
		n.InsertBefore(pre, c)
		h.drop(pre)
	}
}

// panels returns the ids of the elements that a visible control opens:
// tabs, accordions and disclosure buttons name their panel in
// aria-controls, data-target, data-bs-target or data-panel-id. A reader
// opens such a panel with a click, so its text is content, hidden or not.
// A control shows itself by its text, a picture, or a name given for an
// icon (aria-label, title, or aria-labelledby naming an element with
// text: an accordion's empty button laid over its heading); an empty
// element naming a panel is no control a reader can see, and opened a
// hidden instruction with one more tag.
//
// With disclosures, it also returns the panels disclosure buttons show
// (disclosure.go): both are read in one walk of the controls a reader
// sees.
func panels(root *html.Node, disclosures bool) (map[string]bool, map[*html.Node]bool) {
	ids := map[string]bool{}
	var disclosed map[*html.Node]bool
	if disclosures {
		disclosed = map[*html.Node]bool{}
	}
	byID := elementsByID(root)
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if isHidden(n) || unseenByStyle(n) {
				return // a control nobody sees opens nothing
			}
			for _, key := range []string{"aria-controls", "data-target", "data-bs-target", "data-panel-id"} {
				targets := strings.Fields(attr(n, key))
				if len(targets) == 0 || !showsItself(n, byID) {
					continue
				}
				for _, id := range targets {
					ids[strings.TrimPrefix(id, "#")] = true
				}
			}
			if disclosures {
				if panel := disclosedBy(n, byID); panel != nil {
					disclosed[panel] = true
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return ids, disclosed
}

// showsItself reports whether a control is something a reader sees: it
// has visible text or a picture (<img>, <svg>), or names its icon in
// aria-label or title, or by aria-labelledby an element of byID (the
// page's elements by id) with visible text.
func showsItself(n *html.Node, byID map[string]*html.Node) bool {
	if strings.TrimSpace(attr(n, "aria-label")) != "" || strings.TrimSpace(attr(n, "title")) != "" {
		return true
	}
	for _, id := range strings.Fields(attr(n, "aria-labelledby")) {
		if label := byID[id]; label != nil && label != n && !isHidden(label) && shownText(label, isHidden) != "" {
			return true
		}
	}
	if shownText(n, isHidden) != "" {
		return true
	}
	return findElement(n, func(c *html.Node) bool {
		return (c.DataAtom == atom.Img || c.DataAtom == atom.Svg) && !isHidden(c)
	}) != nil
}

// elementsByID returns the page's elements by their id, the first of each.
func elementsByID(root *html.Node) map[string]*html.Node {
	byID := map[string]*html.Node{}
	walkElements(root, func(n *html.Node) bool {
		if id := attr(n, "id"); id != "" {
			if _, seen := byID[id]; !seen {
				byID[id] = n
			}
		}
		return true
	})
	return byID
}

// overlayWords name overlays: a control opens them over the page, not
// into it, so they are not the page's content even when opened.
var overlayWords = regexp.MustCompile(`(?i)modal|popup|popover|dropdown|menu|tooltip|drawer|offcanvas|dialog`)

// menuWords name the menus a control drops down over the page.
var menuWords = regexp.MustCompile(`(?i)dropdown|menu`)

// isMenu reports whether a panel is a menu: by its role, or by its class
// or id, unless its role says it is a region of the page (an accordion's
// panel, which some name a drawer or a menu).
func isMenu(n *html.Node) bool {
	switch roleOf(n) {
	case "menu", "listbox":
		return true
	case "region", "tabpanel":
		return false
	}
	return menuWords.MatchString(attr(n, "class") + " " + attr(n, "id"))
}

// isOverlay reports whether a panel is a dialog, menu or other overlay.
func isOverlay(n *html.Node) bool {
	switch roleOf(n) {
	case "menu", "listbox", "tooltip":
		return true
	}
	return isDialog(n) || overlayWords.MatchString(attr(n, "class")+" "+attr(n, "id"))
}

// openPanel shows a panel as a click on its control would: without the
// attributes, classes and inline style that hid it (go-trafilatura drops
// display:none itself).
func openPanel(n *html.Node) {
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "hidden", "aria-hidden", "style":
			continue
		case "class":
			var classes []string
			for _, c := range strings.Fields(a.Val) {
				if !hiddenClasses[strings.ToLower(c)] {
					classes = append(classes, c)
				}
			}
			a.Val = strings.Join(classes, " ")
		}
		kept = append(kept, a)
	}
	n.Attr = kept
}

// A cloak is an element hidden with visibility:hidden around (nearly) the
// whole page, which a script or stylesheet shows once the page has loaded,
// so that readers never see it half styled. Hidden text is dangerous as a
// part of a page that readers do not see beside the part they do; a cloak
// has no such other part, so it is opened. (A whole tutorial was lost to
// one.)
const cloakShare = 0.9

func isCloak(n *html.Node, pageWords int) bool {
	style := visibility.NormalizeCSS(attr(n, "style"))
	others := strings.ReplaceAll(style, "visibility:hidden", "")
	if others == style || hidesByStyle(others) || hasAttr(n, "hidden") {
		return false
	}
	return pageWords > 0 && float64(words(n)) >= cloakShare*float64(pageWords)
}

// words counts the words of n's text that a reader could see, leaving out
// scripts, styles, templates and <noscript>, and links' marks (links.go).
func words(n *html.Node) int {
	all, _ := countWords(n, false)
	return all
}

// totalWords counts the words of nodes, as words does for each.
func totalWords(nodes []*html.Node) int {
	total := 0
	for _, n := range nodes {
		total += words(n)
	}
	return total
}

func isHidden(n *html.Node) bool {
	// Browsers show neither a <dialog> until it is opened nor a popover
	// until it pops up.
	if n.Data == "template" || n.Data == "dialog" && !hasAttr(n, "open") {
		return true
	}
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "hidden", "popover":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "type":
			if n.Data == "input" && strings.EqualFold(a.Val, "hidden") {
				return true
			}
		case "style":
			style := visibility.NormalizeCSS(a.Val)
			if hidesByStyle(style) || strings.Contains(style, "var(") && hiddenByVar(a.Val) {
				return true
			}
		case "class":
			if hasClassIn(a.Val, hiddenClasses) {
				return true
			}
		}
	}
	return false
}

// hiddenByVar reports whether a style that names custom properties
// hides its element once they are read (resolveVars).
func hiddenByVar(style string) bool {
	d := visibility.Declarations(style)
	return d["display"] == "none" || d["visibility"] == "hidden" || d["visibility"] == "collapse"
}
