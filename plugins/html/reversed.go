package html

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
)

// A countdown (<ol reversed>, "3. 2. 1.") is numbered down from its start
// by a browser, and an item with a value (<li value="10">) carries that
// number, the items after it counting on from it, but the markdown
// converter reads neither attribute: it counted up ("1. 2. 3.", or "5. 6.
// 7." from start="5"), the page's order of steps or ranks read backwards,
// a list that restarts or skips numbers renumbered. renderNumberedList
// lets the converter write the list, numbered up to the highest number so
// that every marker has its width and the items' indentation fits, and
// then writes each marker's number as the browser shows it. Markdown
// numbers a list only by its first marker; an agent reads the text, where
// each marker now says what the page shows. A list whose number would go
// below 0 (a negative number is no list marker) is left counting up.
func renderNumberedList(ctx htmltomarkdown.Context, w htmltomarkdown.Writer, n *html.Node) htmltomarkdown.RenderStatus {
	if n.Data != "ol" || hasAttr(n, renumbering) || !hasAttr(n, "reversed") && !hasItemValues(n) {
		return htmltomarkdown.RenderTryNext
	}
	numbers, ok := itemNumbers(n)
	if !ok {
		return htmltomarkdown.RenderTryNext // the converter's, counting up
	}
	// Rendered again marked as renumbering, this renderer passes it on
	// to the converter's.
	saved := n.Attr
	start := max(slices.Max(numbers)-len(numbers)+1, 0)
	n.Attr = append(withoutAttr(withoutAttr(append([]html.Attribute(nil), saved...), "reversed"), "start"),
		html.Attribute{Key: "start", Val: strconv.Itoa(start)}, html.Attribute{Key: renumbering})
	var buf bytes.Buffer
	ctx.RenderNodes(ctx, &buf, n)
	n.Attr = saved
	w.Write(renumber(buf.Bytes(), numbers))
	return htmltomarkdown.RenderSuccess
}

// renumbering marks a list renderNumberedList is having the converter
// write.
const renumbering = "data-sift-renumbering"

// listMarker is a numbered list's marker at a line's start: the list's
// own items, as its items' other lines are indented.
var listMarker = regexp.MustCompile(`(?m)^[0-9]+\. `)

// renumber writes the markers of a list the converter rendered as
// numbers, in order, each as wide as it was; a list whose markers do not
// match numbers one for one is left as it is.
func renumber(md []byte, numbers []int) []byte {
	if len(listMarker.FindAllIndex(md, -1)) != len(numbers) {
		return md
	}
	next := 0
	return listMarker.ReplaceAllFunc(md, func(m []byte) []byte {
		width := len(m) - len(". ")
		number := strconv.Itoa(numbers[next])
		next++
		for len(number) < width {
			number = "0" + number
		}
		return []byte(number + ". ")
	})
}

// itemNumbers returns the number a browser shows beside each item of ol
// that the converter writes: counting from the list's start, up or
// (reversed) down, each <li> with a value taking it and those after it
// counting on from it; false when one would be below 0, or an item the
// converter writes is no <li>.
func itemNumbers(ol *html.Node) ([]int, bool) {
	step := 1
	if hasAttr(ol, "reversed") {
		step = -1
	}
	next := orderedStart(ol)
	var numbers []int
	for c := ol.FirstChild; c != nil; c = c.NextSibling {
		renders := rendersAsItem(c)
		if c.Type != html.ElementNode || c.Data != "li" {
			if renders {
				return nil, false
			}
			continue
		}
		if v, ok := itemValue(c); ok {
			next = v
		}
		if renders {
			if next < 0 {
				return nil, false
			}
			numbers = append(numbers, next)
		}
		next += step
	}
	return numbers, len(numbers) > 0
}

// itemValue reads an <li>'s value attribute: a number in bounds.
func itemValue(li *html.Node) (int, bool) {
	if !hasAttr(li, "value") {
		return 0, false
	}
	v, err := strconv.Atoi(strings.TrimSpace(attr(li, "value")))
	return v, err == nil && v >= 0 && v <= maxListStart
}

// hasItemValues reports whether an item of list carries a value.
func hasItemValues(list *html.Node) bool {
	for c := list.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "li" && hasAttr(c, "value") {
			return true
		}
	}
	return false
}

// rendersAsItem reports whether the converter writes a child of a list
// as an item: text, or an element with text or an image; it leaves out an
// item that renders as nothing.
func rendersAsItem(c *html.Node) bool {
	return isVisibleText(c) || c.Type == html.ElementNode && (strings.TrimFunc(textOf(c), isBlank) != "" || hasElement(c, "img"))
}
