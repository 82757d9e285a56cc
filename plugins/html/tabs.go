package html

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A tab set shows one panel at a time and hides the others until their
// tab is clicked: a quickstart writes each example once for every
// language (Twilio's, in eight, seven in hidden panels; Tauri's, once for
// each package manager), and a reader picks the tab of theirs. Panels a
// visible control names in aria-controls are opened whole (hidden.go).
// A panel that names its tab instead, in aria-labelledby (ARIA's
// pattern, Twilio's Paste, Astro's Starlight), or that a tab links to
// with href="#id", keeps its code blocks: the <pre>s in it that nothing
// else hides. Its prose stays hidden, as hidden text that reaches an
// agent could be an instruction a reader never sees; a code block is
// what a reader comes to the tab for, and on the benchmark's pages each
// is an example the visible panel shows in another language.

// tabs are the ids of a page's visible tabs, and of the panels they link.
type tabs struct {
	ids, linked map[string]bool
}

// visibleTabs finds the tabs (role="tab") of the page that no hidden
// element holds.
func visibleTabs(root *html.Node) tabs {
	t := tabs{ids: map[string]bool{}, linked: map[string]bool{}}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if isHidden(n) {
				return
			}
			if roleOf(n) == "tab" {
				if id := attr(n, "id"); id != "" {
					t.ids[id] = true
				}
				if href, ok := strings.CutPrefix(attr(n, "href"), "#"); ok && href != "" {
					t.linked[href] = true
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return t
}

// ofVisibleTab reports whether n is the panel of a visible tab.
func (t tabs) ofVisibleTab(n *html.Node) bool {
	if roleOf(n) != "tabpanel" {
		return false
	}
	if id := attr(n, "id"); id != "" && t.linked[id] {
		return true
	}
	for _, id := range strings.Fields(attr(n, "aria-labelledby")) {
		if t.ids[id] {
			return true
		}
	}
	return false
}

// tabCode is the code blocks a hidden panel of a visible tab keeps: its
// <pre>s that no element between them and the panel hides, and that
// do not hide themselves. hidden tells whether an element is hidden.
func (t tabs) tabCode(panel *html.Node, hidden func(*html.Node) bool) []*html.Node {
	if !t.ofVisibleTab(panel) {
		return nil
	}
	var blocks []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type != html.ElementNode || hidden(c):
			case c.DataAtom == atom.Pre:
				blocks = append(blocks, c)
			default:
				walk(c)
			}
		}
	}
	walk(panel)
	return blocks
}
