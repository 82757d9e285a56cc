package html

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
)

// A countdown (<ol reversed>, "3. 2. 1.") is numbered down from its start
// by a browser, but the markdown converter reads no reversed attribute:
// it counted up ("1. 2. 3.", or "5. 6. 7." from start="5"), the page's
// order of steps or ranks read backwards. renderReversedList lets the
// converter write the list, numbered up from its lowest number so that
// every marker has the width of the highest and the items' indentation
// fits, and then writes its markers' numbers in the reverse order.
// Markdown numbers a list only by its first marker; an agent reads the
// text, where each marker now says what the page shows. A countdown that
// would go below 0 (a negative number is no list marker) is left
// counting up.
func renderReversedList(ctx htmltomarkdown.Context, w htmltomarkdown.Writer, n *html.Node) htmltomarkdown.RenderStatus {
	if n.Data != "ol" || !hasAttr(n, "reversed") {
		return htmltomarkdown.RenderTryNext
	}
	start, items := orderedStart(n), renderedItems(n)
	lowest := start - items + 1
	if lowest < 0 || items == 0 {
		return htmltomarkdown.RenderTryNext // the converter's, counting up
	}
	// Rendered again without the attribute, this renderer passes it on
	// to the converter's.
	saved := n.Attr
	n.Attr = append(withoutAttr(withoutAttr(append([]html.Attribute(nil), saved...), "reversed"), "start"),
		html.Attribute{Key: "start", Val: strconv.Itoa(lowest)})
	var buf bytes.Buffer
	ctx.RenderNodes(ctx, &buf, n)
	n.Attr = saved
	w.Write(countDown(buf.Bytes(), start))
	return htmltomarkdown.RenderSuccess
}

// listMarker is a numbered list's marker at a line's start: the list's
// own items, as its items' other lines are indented.
var listMarker = regexp.MustCompile(`(?m)^[0-9]+\. `)

// countDown writes the markers of a list rendered counting up as counting
// down from start, each as wide as it was.
func countDown(md []byte, start int) []byte {
	next := start
	return listMarker.ReplaceAllFunc(md, func(m []byte) []byte {
		width := len(m) - len(". ")
		number := strconv.Itoa(next)
		next--
		for len(number) < width {
			number = "0" + number
		}
		return []byte(number + ". ")
	})
}

// renderedItems counts the children of a list the converter writes as
// items: those with text, an image or a line break, as it leaves out an
// item that renders as nothing.
func renderedItems(list *html.Node) int {
	items := 0
	for c := list.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case isVisibleText(c):
			items++
		case c.Type == html.ElementNode && (strings.TrimFunc(textOf(c), isBlank) != "" || hasElement(c, "img")):
			items++
		}
	}
	return items
}
