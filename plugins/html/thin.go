package html

import (
	"math"
	"strings"
	"unicode"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// Main content of fewer than thinWords words is either a short page, whose
// whole body is what a reader sees, or a miss of the main-content
// heuristics: the pages whose content was mostly lost (listings,
// collections, products and forums above all) had under 50 words
// extracted. Such pages get the body without its chrome, unless that is
// empty. Higher thresholds gained on those pages but cost short articles.
const thinWords = 50

// tooThin reports whether the extracted content is too short to trust.
func tooThin(content string) bool {
	return wordCount(content) < thinWords
}

// wordCount counts the words of s, each Chinese, Japanese or Korean
// character as one: those scripts put no spaces between words, and a
// Japanese article of 2,000 characters counted as a dozen "words" was taken
// for a thin extraction.
func wordCount(s string) int {
	n := 0
	for field := range strings.FieldsSeq(s) {
		cjk, other := 0, false
		for _, r := range field {
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
				cjk++
			} else if unicode.IsLetter(r) || unicode.IsNumber(r) {
				other = true
			}
		}
		n += cjk
		if other || cjk == 0 {
			n++
		}
	}
	return n
}

// withoutChrome returns a copy of the page's body without the parts every
// page repeats: navigation, header, footer, asides, forms, scripts.
func withoutChrome(root *html.Node) *html.Node {
	return chromeless(bodyOf(root))
}

// chromeless returns a copy of n without navigation, headers, footers,
// asides, forms, scripts and the like, to render as content. Its links are
// still elements, so their marks (links.go), which only go-trafilatura's
// pick needs, go too.
func chromeless(n *html.Node) *html.Node {
	doc := goquery.NewDocumentFromNode(n).Clone()
	// A form that wraps most of the page (ASP.NET pages, shops' filter
	// forms around their grids) is no search box or sign-up form.
	if forms := doc.Find("form"); forms.Length() > 0 {
		total := words(doc.Nodes[0])
		forms.FilterFunction(func(_ int, f *goquery.Selection) bool {
			return 2*words(f.Nodes[0]) < total
		}).Remove()
	}
	doc.Find("nav, header, footer, aside, script, style, noscript, iframe, svg, button, select").Remove()
	doc.Find("[role=navigation], [role=banner], [role=contentinfo], [role=search], [role=complementary]").Remove()
	stripLinkMarksIn(doc.Nodes[0])
	return doc.Nodes[0]
}

// orNonEmpty returns preferred unless it holds no words (a page whose text
// all sits in its chrome).
func orNonEmpty(preferred, fallback *html.Node) *html.Node {
	if strings.TrimFunc(textOf(preferred), isBlank) == "" {
		return fallback
	}
	return preferred
}

func isBlank(r rune) bool { return unicode.IsSpace(r) || r == spaceMark }

// isVisibleText reports whether n is a text node with more than blanks.
func isVisibleText(n *html.Node) bool {
	return n.Type == html.TextNode && strings.TrimFunc(n.Data, isBlank) != ""
}

// maxTitleBytes bounds the content worth comparing with the title: more is
// no title.
const maxTitleBytes = 1024

// A page built by scripts can hold nothing but its title, which the
// extraction then returns as the content: an agent reads the title twice
// and learns nothing. titleOnly reports whether every word of content is a
// word of the page's title; such a page is returned with no content and a
// warning that scripts may build the page.
func titleOnly(content, title string) bool {
	words := wordsIn(content)
	if len(words) == 0 {
		return false
	}
	inTitle := map[string]bool{}
	for _, w := range wordsIn(title) {
		inTitle[w] = true
	}
	for _, w := range words {
		if !inTitle[w] {
			return false
		}
	}
	return true
}

// chromeOnlyShare is the share of the content's words that, found in the
// page's navigation and footers, makes the content chrome. A page that
// scripts build (a shop's grid, a product's details) can hold, as served,
// nothing but its menus and footer; the extraction then returns those as
// its content, and an agent pays for links it could find on any page of
// the site. Such a page is returned with no content and a warning. The
// share is high because pages with real content stay well below it.
// Since the page's landmarks go before extraction (landmarks.go), it
// fires on the shells alone, whose landmarks stay.
//
// Headers are not counted as chrome here: an article's title and
// standfirst sit in one, and short articles came back empty.
const chromeOnlyShare = 0.9

// chromeOnly reports whether chromeOnlyShare or more of content's words
// are words of the navigation and footers of the page under root, each
// word of theirs counted once.
func chromeOnly(content string, root *html.Node) bool {
	total := wordsInCount(content)
	if total == 0 {
		return false
	}
	need := int(math.Ceil(chromeOnlyShare * float64(total)))
	// Most pages have fewer words of chrome than that: they are answered
	// by counting, without the content's words in a map.
	var chrome []string
	have := 0
	for _, n := range matching(root, isNavigationOrFooter) {
		text := textOf(n)
		chrome, have = append(chrome, text), have+wordsInCount(text)
	}
	if have < need {
		return false
	}
	// The content's words are counted off as the chrome's are read.
	left := make(map[string]int, total)
	for _, w := range wordsIn(content) {
		left[w]++
	}
	for _, text := range chrome {
		for _, w := range wordsIn(text) {
			if left[w] > 0 {
				left[w]--
				if need--; need == 0 {
					return true
				}
			}
		}
	}
	return false
}

// isNavigationOrFooter reports whether n is a page's navigation or footer,
// by element or by ARIA role.
func isNavigationOrFooter(n *html.Node) bool {
	switch n.Data {
	case "nav", "footer":
		return true
	}
	switch roleOf(n) {
	case "navigation", "contentinfo":
		return true
	}
	return false
}

// wordsIn returns s's words, lower-cased: runs of letters and digits.
func wordsIn(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), notWordRune)
}

// wordsInCount is len(wordsIn(s)), without building them.
func wordsInCount(s string) int {
	n := 0
	for range strings.FieldsFuncSeq(s, func(r rune) bool { return notWordRune(unicode.ToLower(r)) }) {
		n++
	}
	return n
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// flattened reports whether content is go-trafilatura's last resort: the
// page's text run into one paragraph (`<body><p>text</p></body>`), its
// headings and paragraphs gone into one line. The page without its chrome
// keeps them, when it has blocks to keep.
func flattened(content *html.Node) bool {
	if content == nil || content.Data != "body" {
		return false
	}
	only := onlyElementChild(content)
	return only != nil && only.Data == "p" && only.FirstChild != nil && only.FirstChild == only.LastChild &&
		only.FirstChild.Type == html.TextNode
}
