package html

import (
	"slices"
	"strings"

	"github.com/go-shiori/dom"

	"golang.org/x/net/html"
)

// restoreTitleHeading puts the page's <h1> back at the top of content when
// the heading is the page's title and content lost it. On a page whose
// paragraphs sit in <body> itself, go-trafilatura takes the <h1> for the
// title and its fallback drops a heading that repeats the title; the
// agent then read the heading nowhere, as /v2/scrape reports the <title>
// element, as Firecrawl does.
func restoreTitleHeading(root, content *html.Node, title string) {
	want := headingWords(title)
	if content == nil || want == "" || strings.Contains(headingWords(textOf(content)), want) {
		return
	}
	text := headingWords(textOf(content))
	h1s := dom.GetElementsByTagName(root, "h1")
	i := slices.IndexFunc(h1s, func(n *html.Node) bool {
		return headingWords(textOf(n)) == want && headsContent(n, text)
	})
	if i < 0 {
		return
	}
	h1 := h1s[i]
	heading := &html.Node{Type: html.ElementNode, Data: "h1", DataAtom: h1.DataAtom}
	heading.AppendChild(&html.Node{Type: html.TextNode, Data: strings.TrimSpace(restoreSpaces(stripLinkMarks(textOf(h1))))})
	content.InsertBefore(heading, content.FirstChild)
}

// headingWords is s's words, markers removed, one space apart, for
// comparing a heading with a title.
func headingWords(s string) string {
	return strings.Join(strings.Fields(restoreSpaces(stripLinkMarks(s))), " ")
}

// headsContent reports whether the heading h stands right above content
// whose words are text: the next paragraph among its siblings is in it.
// A title heading elsewhere (a page header above the article's container)
// is left out, as the content's region was chosen without it.
func headsContent(h *html.Node, text string) bool {
	for n := h.NextSibling; n != nil; n = n.NextSibling {
		if n.Type == html.ElementNode && n.Data == "p" {
			words := headingWords(textOf(n))
			return words != "" && strings.Contains(text, words)
		}
	}
	return false
}
