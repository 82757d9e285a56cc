package html

import (
	"strings"
	"unicode/utf8"

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
	// labels are the labels labelTabCode wrote.
	labels map[*html.Node]bool
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
// do not hide themselves, each after the label labelTabCode wrote for
// it, if any (which stands next to it, with no element hidden between
// them and the panel). hidden tells whether an element is hidden.
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
			case c.DataAtom == atom.Pre || t.labels[c]:
				blocks = append(blocks, c)
			default:
				walk(c)
			}
		}
	}
	walk(panel)
	return blocks
}

// A tab panel's code is labelled with its tab: a documentation page
// that writes an example once for every language or system (Python,
// Node.js, curl; Windows, macOS, Linux) shows one panel at a time under
// the tab a reader picked, and the blocks of the other panels, kept
// beside it, do not say which is which, a fence's language least of
// all between two shells. labelTabCode writes the visible text of a
// panel's tab as a line of its own, "**Python**", before the panel's
// first code block, in every panel of a set whose code reaches the
// content in two panels or more, shown or hidden (a set whose other
// panels' code stays hidden has nothing to tell apart). The tab is
// found as browsers and the frameworks find it: the control that names
// the panel in aria-controls, href="#id",
// data-target or data-bs-target (ARIA's tabs, Bootstrap's nav-tabs,
// sphinx-tabs, Microsoft Learn), the tab the panel names in
// aria-labelledby (Starlight, Twilio's Paste), the <label>s of a
// Material for MkDocs .tabbed-set or a sphinx-design .sd-tab-set in the
// order of their panels, and the tabs of a tab list whose tabs name no
// panel (Docusaurus, Netlify's) in the order of the panels after it
// (a hidden panel paired so keeps no code: on Netlify's home page, whose
// benchmark truth holds only the shown panel, its four hidden examples
// moved the content's region and cost 0.24 of the page's F1). A label is
// only the text a reader sees on a visible tab, and only a short one;
// it goes with the code block in a hidden panel or not at all, so it
// brings back no hidden prose.

// tabLabelWords and tabLabelRunes bound a label: a tab names its panel
// in a few words.
const (
	tabLabelWords = 4
	tabLabelRunes = 40
)

// tabCodePanels is how many panels of a tab set must hold code that
// reaches the content for its panels to be labelled.
const tabCodePanels = 2

// labelTabCode labels the code of the page's tab panels, as above, and
// returns the labels it wrote. hidden tells whether an element is
// hidden, shows whether a panel's code reaches the content.
func labelTabCode(root *html.Node, hidden, shows func(*html.Node) bool) map[*html.Node]bool {
	panelLabel := tabPanelLabels(root, hidden)
	// The panels of a set are siblings; a set is labelled when enough of
	// its panels hold code.
	firstCode := map[*html.Node]*html.Node{}
	sets := map[*html.Node]int{}
	for panel := range panelLabel {
		if pre := firstCodeBlock(panel, panelLabel, hidden); pre != nil && shows(panel) {
			firstCode[panel] = pre
			sets[panel.Parent]++
		}
	}
	labels := map[*html.Node]bool{}
	for panel, pre := range firstCode {
		label := panelLabel[panel]
		if sets[panel.Parent] < tabCodePanels || !shortLabel(label) {
			continue
		}
		at := codeWrapper(pre, panel)
		if panel.DataAtom != 0 && !blockParent[panel.DataAtom] || strings.EqualFold(strings.TrimRight(lineBefore(panel, at, hidden), ": "), label) {
			continue
		}
		p, strong := element(atom.P), element(atom.Strong)
		strong.AppendChild(&html.Node{Type: html.TextNode, Data: label})
		p.AppendChild(strong)
		at.Parent.InsertBefore(p, at)
		labels[p] = true
	}
	return labels
}

// tabPanelLabels returns the label of each tab panel of the page whose
// tab is found (as above): the visible tabs' texts, by the panels they
// name, by their own ids for the panels that name them, and by order in
// tab lists and tabbed sets.
func tabPanelLabels(root *html.Node, hidden func(*html.Node) bool) map[*html.Node]string {
	byTarget := map[string]string{} // panel id → label
	byID := map[string]string{}     // tab id → label
	panelLabel := map[*html.Node]string{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if hidden(n) {
				return
			}
			if isTabControl(n) {
				label := shownText(n, hidden)
				for _, id := range tabTargets(n) {
					if _, ok := byTarget[id]; !ok {
						byTarget[id] = label
					}
				}
				if id := attr(n, "id"); id != "" && roleOf(n) == "tab" {
					byID[id] = label
				}
			}
			if roleOf(n) == "tablist" {
				pairInOrder(n, hidden, panelLabel)
			}
			if hasClassIn(attr(n, "class"), tabbedSets) {
				pairTabbedSet(n, hidden, panelLabel)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	var find func(*html.Node)
	find = func(n *html.Node) {
		if _, ok := panelLabel[n]; !ok && n.Type == html.ElementNode {
			if label, ok := panelLabelByID(n, byTarget, byID); ok {
				panelLabel[n] = label
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(root)
	return panelLabel
}

// panelLabelByID returns the label of the tab that names n by its id, or
// that n names in aria-labelledby when it is a tab panel.
func panelLabelByID(n *html.Node, byTarget, byID map[string]string) (string, bool) {
	if id := attr(n, "id"); id != "" {
		if label, ok := byTarget[id]; ok {
			return label, true
		}
	}
	if roleOf(n) == "tabpanel" {
		for _, id := range strings.Fields(attr(n, "aria-labelledby")) {
			if label, ok := byID[id]; ok {
				return label, true
			}
		}
	}
	return "", false
}

// blockParent are the elements a paragraph can stand in (and custom
// elements): a panel that is a list or a table's part gets no label.
var blockParent = map[atom.Atom]bool{
	atom.Div: true, atom.Section: true, atom.Article: true, atom.Li: true, atom.Dd: true,
	atom.Td: true, atom.Th: true, atom.Figure: true, atom.Main: true, atom.Aside: true,
	atom.Details: true, atom.Blockquote: true, atom.Body: true, atom.Form: true, atom.Fieldset: true,
}

// tabbedSets are the classes of the tab sets made of <input>s and
// <label>s: Material for MkDocs and sphinx-design.
var tabbedSets = map[string]bool{"tabbed-set": true, "sd-tab-set": true}

// isTabControl reports whether n is a tab: role="tab", or a Bootstrap
// toggle of a tab or pill.
func isTabControl(n *html.Node) bool {
	if roleOf(n) == "tab" {
		return true
	}
	for _, key := range []string{"data-toggle", "data-bs-toggle"} {
		switch strings.ToLower(strings.TrimSpace(attr(n, key))) {
		case "tab", "pill":
			return true
		}
	}
	return false
}

// tabTargets are the ids of the panels a tab names.
func tabTargets(n *html.Node) []string {
	ids := strings.Fields(attr(n, "aria-controls"))
	for _, key := range []string{"href", "data-target", "data-bs-target"} {
		if id, ok := strings.CutPrefix(strings.TrimSpace(attr(n, key)), "#"); ok && id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// pairInOrder pairs the tabs of a tab list that name no panel with the
// panels (role="tabpanel") after the list, in order, when there are as
// many of each (Docusaurus).
func pairInOrder(list *html.Node, hidden func(*html.Node) bool, panelLabel map[*html.Node]string) {
	var tabs []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type != html.ElementNode || hidden(c):
			case roleOf(c) == "tab":
				tabs = append(tabs, c)
			default:
				walk(c)
			}
		}
	}
	walk(list)
	for _, tab := range tabs {
		if len(tabTargets(tab)) > 0 || attr(tab, "id") != "" {
			return
		}
	}
	var panels []*html.Node
	var find func(*html.Node)
	find = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type != html.ElementNode:
			case roleOf(c) == "tabpanel":
				panels = append(panels, c)
			default:
				find(c)
			}
		}
	}
	for s := list.NextSibling; s != nil; s = s.NextSibling {
		if s.Type == html.ElementNode && roleOf(s) == "tabpanel" {
			panels = append(panels, s)
		} else {
			find(s)
		}
	}
	if len(tabs) < 2 || len(panels) != len(tabs) {
		return
	}
	for i, tab := range tabs {
		panelLabel[panels[i]] = shownText(tab, hidden)
	}
}

// pairTabbedSet pairs the <label>s of a Material for MkDocs or
// sphinx-design tab set with its panels, in order: each label followed
// by its .tabbed-content or .sd-tab-content, or the labels in a
// .tabbed-labels and the .tabbed-blocks of one .tabbed-content.
func pairTabbedSet(set *html.Node, hidden func(*html.Node) bool, panelLabel map[*html.Node]string) {
	var labels, panels []*html.Node
	for c := set.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		class := attr(c, "class")
		switch {
		case c.DataAtom == atom.Label:
			labels = append(labels, c)
		case hasClassIn(class, map[string]bool{"tabbed-labels": true}):
			for l := c.FirstChild; l != nil; l = l.NextSibling {
				if l.Type == html.ElementNode && l.DataAtom == atom.Label {
					labels = append(labels, l)
				}
			}
		case hasClassIn(class, map[string]bool{"tabbed-content": true, "sd-tab-content": true}):
			var blocks []*html.Node
			for b := c.FirstChild; b != nil; b = b.NextSibling {
				if b.Type == html.ElementNode && hasClassIn(attr(b, "class"), map[string]bool{"tabbed-block": true}) {
					blocks = append(blocks, b)
				}
			}
			if len(blocks) == 0 {
				blocks = []*html.Node{c}
			}
			panels = append(panels, blocks...)
		}
	}
	if len(labels) < 2 || len(panels) != len(labels) {
		return
	}
	for i, l := range labels {
		if hidden(l) {
			continue
		}
		panelLabel[panels[i]] = shownText(l, hidden)
	}
}

// shownText is n's text that no hidden element holds, its spaces
// collapsed.
func shownText(n *html.Node, hidden func(*html.Node) bool) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
				b.WriteByte(' ')
			case c.Type != html.ElementNode || hidden(c):
			case c.DataAtom == atom.Script || c.DataAtom == atom.Style || c.DataAtom == atom.Svg:
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// shortLabel reports whether a tab's label is short enough to write:
// a few words, no line of markup of its own.
func shortLabel(label string) bool {
	n := len(strings.Fields(label))
	return n > 0 && n <= tabLabelWords && utf8.RuneCountInString(label) <= tabLabelRunes &&
		!strings.ContainsAny(label, "*`[]<>#|")
}

// firstCodeBlock is the first <pre> of a panel that no element between
// them hides, outside the panels nested in it.
func firstCodeBlock(panel *html.Node, panels map[*html.Node]string, hidden func(*html.Node) bool) *html.Node {
	var walk func(*html.Node) *html.Node
	walk = func(n *html.Node) *html.Node {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || hidden(c) {
				continue
			}
			if _, nested := panels[c]; nested {
				continue
			}
			if c.DataAtom == atom.Pre {
				return c
			}
			if pre := walk(c); pre != nil {
				return pre
			}
		}
		return nil
	}
	return walk(panel)
}

// codeWrapper is the child of panel that holds pre: a label goes
// before it, ahead of a highlighter's frame and file name, and of the
// list whose step shows the code (a paragraph in a list, beside its
// items, was written after them).
func codeWrapper(pre, panel *html.Node) *html.Node {
	at := pre
	for at.Parent != nil && at.Parent != panel {
		at = at.Parent
	}
	return at
}

// lineBefore is the last line of visible text in panel before at: the
// text of the last block before it that holds any.
func lineBefore(panel, at *html.Node, hidden func(*html.Node) bool) string {
	var b strings.Builder
	done := false
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && !done; c = c.NextSibling {
			switch {
			case c == at:
				done = true
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type != html.ElementNode || hidden(c):
			default:
				inline := isInline(c)
				if !inline {
					b.WriteByte('\n')
				}
				walk(c)
				if !inline && !done {
					b.WriteByte('\n')
				}
			}
		}
	}
	walk(panel)
	lines := strings.Split(b.String(), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if line := strings.Join(strings.Fields(lines[i]), " "); line != "" {
			return line
		}
	}
	return ""
}
