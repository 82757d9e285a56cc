package html

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// A numbered list that goes on after a code block or a figure starts
// where it left off (<ol start="3">), and so do a recipe's later steps.
// go-trafilatura keeps no attribute, so the steps came out numbered from
// 1 again. markListStarts puts the start, between private-use marks,
// ahead of the list's first item's text; restoreListStarts takes it out
// and sets it on the list again, which the markdown converter numbers
// from.

const (
	listStartOpen  = '\uE00D'
	listStartClose = '\uE00E'
	// maxListStart bounds the number carried: a list numbered past a
	// million is a hostile page's, not a reader's.
	maxListStart = 1_000_000
)

// markListStarts marks the start of every <ol> under n that does not
// start at 1.
func markListStarts(n *html.Node) {
	eachOrderedList(n, func(ol *html.Node, start int) {
		if li := firstElement(ol); li != nil && li.Data == "li" && start != 1 {
			li.InsertBefore(&html.Node{Type: html.TextNode, Data: string(listStartOpen) + strconv.Itoa(start) + string(listStartClose)}, li.FirstChild)
		}
	})
}

// dropOddListStarts removes the start of every <ol> under n whose start
// is no number or past maxListStart, for the whole page, where the
// converter reads the attribute itself (and wrote 99999999 as
// "099999999.").
func dropOddListStarts(n *html.Node) { eachOrderedList(n, func(*html.Node, int) {}) }

// eachOrderedList calls f with each <ol> under n that has a start
// attribute, and its start; an odd start is removed instead.
func eachOrderedList(n *html.Node, f func(ol *html.Node, start int)) {
	walkElements(n, func(c *html.Node) bool {
		if c.Data == "ol" && hasAttr(c, "start") {
			if start, ok := listStart(c); ok {
				f(c, start)
			} else {
				c.Attr = withoutAttr(c.Attr, "start")
			}
		}
		return true
	})
}

// listStart reads an <ol>'s start attribute.
func listStart(ol *html.Node) (int, bool) {
	v, err := strconv.Atoi(strings.TrimSpace(attr(ol, "start")))
	return v, err == nil && v >= 0 && v <= maxListStart
}

// restoreListStarts takes the marks out of the text under n, and sets
// the start they carry on the list whose first item opens with one.
func restoreListStarts(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.TextNode {
			restoreListStarts(c)
			continue
		}
		for strings.ContainsRune(c.Data, listStartOpen) {
			i := strings.IndexRune(c.Data, listStartOpen)
			j := strings.IndexRune(c.Data[i:], listStartClose)
			if j < 0 {
				c.Data = c.Data[:i] + c.Data[i+len(string(listStartOpen)):]
				continue
			}
			number := c.Data[i+len(string(listStartOpen)) : i+j]
			c.Data = c.Data[:i] + c.Data[i+j+len(string(listStartClose)):]
			if ol := listOpenedBy(c); ol != nil && strings.TrimSpace(c.Data[:i]) == "" {
				ol.Attr = append(withoutAttr(ol.Attr, "start"), html.Attribute{Key: "start", Val: number})
			}
		}
	}
}

// listOpenedBy returns the <ol> whose first item t's text opens, or nil.
func listOpenedBy(t *html.Node) *html.Node {
	n := t
	for ; n.Parent != nil && n.Parent.Data != "li"; n = n.Parent {
		for p := n.PrevSibling; p != nil; p = p.PrevSibling {
			if strings.TrimSpace(textOf(p)) != "" {
				return nil
			}
		}
	}
	li := n.Parent
	if li == nil || li.Parent == nil || li.Parent.Data != "ol" || firstElement(li.Parent) != li {
		return nil
	}
	return li.Parent
}
