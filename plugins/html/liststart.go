package html

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// A numbered list that goes on after a code block or a figure starts
// where it left off (<ol start="3">), and so do a recipe's later steps;
// a countdown (<ol reversed>) counts down from its start, which without
// the attribute is its number of items. go-trafilatura keeps no
// attribute, so the steps came out numbered from 1 again, and a
// countdown counted up. markListStarts puts the start, between
// private-use marks and led by reversedMark for a countdown, ahead of the
// list's first item's text; restoreListStarts takes it out and sets it on
// the list again, which the markdown converter numbers from (and
// renderNumberedList counts down from, reversed.go), and each item's
// value (<li value>) the same way.

const (
	listStartOpen  = '\uE00D'
	listStartClose = '\uE00E'
	// maxListStart bounds the number carried: a list numbered past a
	// million is a hostile page's, not a reader's.
	maxListStart = 1_000_000
	// reversedMark leads the start of a countdown in its mark, and
	// valueMark an item's value (<li value>) in the mark at its text's
	// start.
	reversedMark = 'r'
	valueMark    = 'v'
)

// markListStarts marks the start of every <ol> under n that does not
// count up from 1.
func markListStarts(n *html.Node) {
	eachOrderedList(n, func(ol *html.Node, start int) {
		for li := ol.FirstChild; li != nil; li = li.NextSibling {
			if v, ok := itemValue(li); ok && li.Data == "li" {
				li.InsertBefore(&html.Node{Type: html.TextNode, Data: string(listStartOpen) + string(valueMark) + strconv.Itoa(v) + string(listStartClose)}, li.FirstChild)
			}
		}
		reversed := hasAttr(ol, "reversed")
		if li := firstElement(ol); li != nil && li.Data == "li" && (start != 1 || reversed) {
			number := strconv.Itoa(start)
			if reversed {
				number = string(reversedMark) + number
			}
			li.InsertBefore(&html.Node{Type: html.TextNode, Data: string(listStartOpen) + number + string(listStartClose)}, li.FirstChild)
		}
	})
}

// dropOddListStarts removes the start of every <ol> under n whose start
// is no number or past maxListStart, for the whole page, where the
// converter reads the attribute itself (and wrote 99999999 as
// "099999999.").
func dropOddListStarts(n *html.Node) { eachOrderedList(n, func(*html.Node, int) {}) }

// eachOrderedList calls f with each <ol> under n and its start: its start
// attribute, else its number of items for a countdown, else 1. A start
// attribute that is no number or past maxListStart is removed first.
func eachOrderedList(n *html.Node, f func(ol *html.Node, start int)) {
	walkElements(n, func(c *html.Node) bool {
		if c.Data == "ol" {
			if hasAttr(c, "start") {
				if _, ok := listStart(c); !ok {
					c.Attr = withoutAttr(c.Attr, "start")
				}
			}
			f(c, orderedStart(c))
		}
		return true
	})
}

// orderedStart is the number an <ol>'s first item carries: its start
// attribute when that is a number in bounds, else for a countdown its
// number of items (the HTML standard's default), else 1.
func orderedStart(ol *html.Node) int {
	if start, ok := listStart(ol); ok {
		return start
	}
	if hasAttr(ol, "reversed") {
		return min(listItems(ol), maxListStart)
	}
	return 1
}

// listItems counts the <li> children of a list.
func listItems(list *html.Node) int {
	items := 0
	for c := list.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "li" {
			items++
		}
	}
	return items
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
			if strings.TrimSpace(c.Data[:i]) != "" {
				continue
			}
			if value, ok := strings.CutPrefix(number, string(valueMark)); ok {
				if li := itemOpenedBy(c); li != nil {
					li.Attr = append(withoutAttr(li.Attr, "value"), html.Attribute{Key: "value", Val: value})
				}
				continue
			}
			if ol := listOpenedBy(c); ol != nil {
				countdown, reversed := strings.CutPrefix(number, string(reversedMark))
				ol.Attr = append(withoutAttr(withoutAttr(ol.Attr, "start"), "reversed"), html.Attribute{Key: "start", Val: countdown})
				if reversed {
					ol.Attr = append(ol.Attr, html.Attribute{Key: "reversed"})
				}
			}
		}
	}
}

// listOpenedBy returns the <ol> whose first item t's text opens, or nil.
func listOpenedBy(t *html.Node) *html.Node {
	li := itemOpenedBy(t)
	if li == nil || firstElement(li.Parent) != li {
		return nil
	}
	return li.Parent
}

// itemOpenedBy returns the item of an <ol> whose text t opens, or nil.
func itemOpenedBy(t *html.Node) *html.Node {
	n := t
	for ; n.Parent != nil && n.Parent.Data != "li"; n = n.Parent {
		for p := n.PrevSibling; p != nil; p = p.PrevSibling {
			if strings.TrimSpace(textOf(p)) != "" {
				return nil
			}
		}
	}
	li := n.Parent
	if li == nil || li.Parent == nil || li.Parent.Data != "ol" {
		return nil
	}
	return li
}
