package html

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// go-trafilatura extracts more of a page with its links off: with them on
// it drops lists whose items hold links (documentation pages lost theirs).
// But agents follow links. So the links are taken out of go-trafilatura's
// sight and put back afterwards: markLinks puts
// private-use markers around each link, carrying the link's number,
// go-trafilatura runs with links off (it keeps the text, markers and all),
// and linkMarkdown turns each marked text in the markdown back into a link.

const (
	linkOpen  = '\uE001'
	linkClose = '\uE002'
	// linkBase numbers links in Supplementary Private Use Area-A.
	linkBase = 0xF0000
	maxLinks = 0xFFFD
)

// markLinks marks the text of every link under root that has some, and
// returns their hrefs by number. With insideAlone, a link alone in its
// parent gets its marks inside (markLink).
func markLinks(root *html.Node, insideAlone bool) []string {
	var hrefs []string
	// Whether a parent holds text beside its links, looked up once per
	// parent: looked up for each link, 100,000 links in one element took
	// 50 s.
	alone := map[*html.Node]bool{}
	inside := func(a *html.Node) bool {
		if !insideAlone {
			return false
		}
		in, ok := alone[a.Parent]
		if !ok {
			in = aloneInParent(a)
			alone[a.Parent] = in
		}
		return in
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "pre", "code", "textarea", "script", "style":
				return // text shown as it is: a link there stays its text
			}
		}
		if n.Type == html.ElementNode && n.Data == "a" && len(hrefs) < maxLinks {
			if href := strings.TrimSpace(attr(n, "href")); href != "" && strings.TrimFunc(textOf(n), isBlank) != "" {
				markLink(n, string(linkOpen)+string(rune(linkBase+len(hrefs))), string(linkClose), inside(n))
				hrefs = append(hrefs, href)
			}
			return // a link inside a link is not one
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return hrefs
}

// markLink puts open and close around the text of link a: beside it, or
// inside it when inside is set. go-trafilatura weighs the length of a
// link's text against its parent's, so the marks go where they change that
// least:
//   - beside a link that shares its parent with text (a link in a
//     sentence): inside, they made short links look heavier, and a Q&A
//     page lost its answers;
//   - inside a link alone in its parent (a menu item, a card's title), on
//     pages that declare no article: beside it, they were the only text of
//     the parent outside a link, and go-trafilatura took menus for text.
//     On articles inside marks changed nothing but cost time, so there
//     they stay beside.
func markLink(a *html.Node, open, close string, inside bool) {
	if !inside {
		textBefore(a, open)
		textAfter(a, close)
		return
	}
	a.InsertBefore(&html.Node{Type: html.TextNode, Data: open}, a.FirstChild)
	a.AppendChild(&html.Node{Type: html.TextNode, Data: close})
}

// aloneInParent reports whether no text but blanks sits beside n in its
// parent.
func aloneInParent(n *html.Node) bool {
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if isVisibleText(c) {
			return false
		}
	}
	return true
}

// textBefore puts s just before n, at the end of the text there if there
// is some: a text node of its own beside another would be read
// differently.
func textBefore(n *html.Node, s string) {
	if p := n.PrevSibling; p != nil && p.Type == html.TextNode {
		p.Data += s
		return
	}
	n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: s}, n)
}

// textAfter puts s just after n, at the start of the text there if there
// is some.
func textAfter(n *html.Node, s string) {
	if x := n.NextSibling; x != nil && x.Type == html.TextNode {
		x.Data = s + x.Data
		return
	}
	n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: s}, n.NextSibling)
}

// markedLink matches a marked link text on one line.
var markedLink = regexp.MustCompile("\uE001([\U000F0000-\U000FFFFD])([^\uE001\uE002\n]*)\uE002")

// linkMarkdown turns marked link texts into markdown links, resolved
// against docBase (documentBase), or into plain text when the link leads nowhere; markers
// left over (a link cut by a line break) are dropped.
func linkMarkdown(md string, hrefs []string, docBase string) string {
	if len(hrefs) == 0 {
		return md
	}
	base, _ := url.Parse(docBase)
	var b strings.Builder
	last := 0
	for _, m := range markedLink.FindAllStringSubmatchIndex(md, -1) {
		b.WriteString(md[last:m[0]])
		number, _ := utf8.DecodeRuneInString(md[m[2]:m[3]])
		idx := int(number) - linkBase
		b.WriteString(restoreLink(md[m[4]:m[5]], idx, hrefs, base))
		last = m[1]
	}
	b.WriteString(md[last:])
	return stripLinkMarks(b.String())
}

// restoreLink renders the marked text of link idx: as a markdown link, as
// its text, or as nothing when it is a heading's permalink.
func restoreLink(text string, idx int, hrefs []string, base *url.URL) string {
	trimmed := strings.TrimFunc(text, unicode.IsSpace)
	if idx < len(hrefs) && isPermalink(hrefs[idx], trimmed) {
		return ""
	}
	if idx >= len(hrefs) || trimmed == "" || leadsNowhere(hrefs[idx]) {
		return text
	}
	lead := text[:strings.Index(text, trimmed)]
	tail := text[len(lead)+len(trimmed):]
	return lead + "[" + escapeBrackets(trimmed) + "](" + linkTarget(base, hrefs[idx]) + ")" + tail
}

// escapeBrackets escapes the brackets of a link's text that are not
// escaped already: the converter leaves a lone "]" in running text as it is,
// and inside a link it would end the text early ("[git-add\[1]](…)" is no
// link at all).
func escapeBrackets(text string) string {
	var b strings.Builder
	escaped := false
	for _, r := range text {
		if (r == '[' || r == ']') && !escaped {
			b.WriteByte('\\')
		}
		escaped = r == '\\' && !escaped
		b.WriteRune(r)
	}
	return b.String()
}

// linkTarget resolves href against base and escapes what would end a
// markdown link early.
func linkTarget(base *url.URL, href string) string {
	target := href
	if u, err := url.Parse(href); err == nil {
		if base != nil && base.IsAbs() {
			u = base.ResolveReference(u)
		}
		target = u.String()
	}
	return linkTargetEscapes.Replace(target)
}

// linkTargetEscapes escapes what would end a markdown link's target early.
var linkTargetEscapes = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29")

// stripLinkMarks removes link markers from s.
func stripLinkMarks(s string) string {
	return strings.Map(func(r rune) rune {
		if isNotLinkMark(r) {
			return r
		}
		return -1
	}, s)
}

// isNotLinkMark reports whether r is text rather than a link marker.
func isNotLinkMark(r rune) bool {
	return r != linkOpen && r != linkClose && (r < linkBase || r > linkBase+maxLinks)
}

// stripLinkMarksIn removes link markers from the text under n, for content
// that still has its links as elements (a region copied from the page,
// chromeless).
func stripLinkMarksIn(n *html.Node) {
	if n.Type == html.TextNode {
		n.Data = stripLinkMarks(n.Data)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		stripLinkMarksIn(c)
	}
}
