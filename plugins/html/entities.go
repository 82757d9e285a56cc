package html

import (
	"strings"

	"golang.org/x/net/html"
)

// html-to-markdown writes every < and > of the page's text as &lt; and
// &gt;, so that no renderer takes them for tags. An agent reads
// "&lt;token&gt;" as three words where the page shows "<token>" (man pages
// and command references are full of them). A backslash escape is as safe
// in markdown, where no tag starts with \<, and reads as the page does. So
// markAngles swaps the text's angle brackets (outside code and <kbd>, which
// markdown writes as code: there text is shown as it is) for private-use
// markers the converter leaves alone, and unmarkAngles writes them as \<
// and \>. Text that reads "&lt;" on the page stays "&lt;".

const (
	lessMark    = '\uE003'
	greaterMark = '\uE004'
)

var angleMarker = strings.NewReplacer("<", string(lessMark), ">", string(greaterMark))

// markAngles marks the angle brackets in the text under n, outside code.
func markAngles(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			c.Data = angleMarker.Replace(c.Data)
		case c.Type == html.ElementNode && (c.Data == "pre" || c.Data == "code" || c.Data == "kbd"):
			// shown as it is
		default:
			markAngles(c)
		}
	}
}

var angleUnmarker = strings.NewReplacer(string(lessMark), `\<`, string(greaterMark), `\>`)

// unmarkAngles writes marked angle brackets as markdown escapes.
func unmarkAngles(md string) string { return angleUnmarker.Replace(md) }
