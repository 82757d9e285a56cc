package html

import (
	"slices"

	"golang.org/x/net/html"
)

// go-trafilatura rewrites a list item as its text followed by its
// descendants' texts, each an inline element of the item: a block in an
// item after its text (a code example in a <div> or a <p>) ran into that
// text ("Para item`c = 3`", "Para itemc = 3" as text), and text after
// the block moved ahead of it ("Para itemand more text`c = 3`"). The whole
// page renders the item's lines apart. restoreItemLines gives such an item
// the children of the page's own item when the two hold the same
// characters, blanks aside, in whatever order: only the lines and their
// order change, never a word. The copy is made as go-trafilatura copies
// content (copyElements, quotetree.go).
func restoreItemLines(root, content *html.Node) {
	if content == nil || !hasElement(content, "li") {
		return
	}
	pageItems := map[string]*html.Node{}
	walkElements(root, func(li *html.Node) bool {
		if li == content {
			return false
		}
		if li.Data == "li" && itemLines(li) > 1 {
			if key := itemKey(li); key != "" && pageItems[key] == nil {
				pageItems[key] = li
			}
		}
		return true
	})
	if len(pageItems) == 0 {
		return
	}
	var flat []*html.Node
	walkElements(content, func(li *html.Node) bool {
		if li.Data != "li" {
			return true
		}
		if page := pageItems[itemKey(li)]; page != nil && itemLines(li) < itemLines(page) {
			flat = append(flat, li)
			return false
		}
		return true
	})
	for _, li := range flat {
		page := pageItems[itemKey(li)]
		for c := li.FirstChild; c != nil; c = li.FirstChild {
			li.RemoveChild(c)
		}
		copied := copyElements(page)
		for c := copied.FirstChild; c != nil; c = copied.FirstChild {
			copied.RemoveChild(c)
			li.AppendChild(c)
		}
	}
}

// maxItemText bounds the text of an item restoreItemLines compares: an
// item holds a few lines, and a list nested hundreds deep above a
// mebibyte of text was read whole and sorted at every level (21 s in
// BenchmarkLargePage/deep-lists).
const maxItemText = 16 << 10

// itemKey is the characters of an item's text, blanks aside, in order of
// their code (go-trafilatura moves text after a block ahead of it), or ""
// for an item of more than maxItemText bytes.
func itemKey(li *html.Node) string {
	text, ok := textUpTo(li, maxItemText)
	if !ok {
		return ""
	}
	r := []rune(squeezed(text))
	slices.Sort(r)
	return string(r)
}

// itemLines counts the lines an element's children stand on: each block
// with text, and each run of text and inline elements between them. An
// element whose text sits in one block alone is counted by that block's
// children.
func itemLines(n *html.Node) int {
	lines, inRun := 0, false
	var only *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		visible := isVisibleText(c) || c.Type == html.ElementNode && hasText(c)
		switch {
		case c.Type == html.ElementNode && blockTags[c.Data]:
			inRun = false
			if visible {
				lines++
				only = c
			}
		case visible && !inRun:
			inRun = true
			lines++
			only = nil
		}
	}
	if lines == 1 && only != nil && only.Data != "li" {
		return itemLines(only)
	}
	return lines
}
