package html

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"github.com/siftd/sift/plugins/sdk"
)

// htmlOption reads sdk.OptionHTML: "true" asks for the content as HTML
// beside the markdown.
func htmlOption(opts map[string]string) (bool, error) {
	switch v := opts[sdk.OptionHTML]; v {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	default:
		return false, &sdk.DocError{Class: sdk.ClassBadOption, Message: fmt.Sprintf(`%s %q: want "true" or "false"`, sdk.OptionHTML, v)}
	}
}

// dropFromHTML are the elements that render no content a reader sees, or
// that would run or load something in whoever renders the HTML.
var dropFromHTML = map[string]bool{
	"script": true, "style": true, "noscript": true, "template": true, "link": true, "meta": true,
	"base": true, "iframe": true, "frame": true, "object": true, "embed": true,
}

// urlAttrs are the attributes that hold a URL, made absolute.
var urlAttrs = map[string]bool{"href": true, "src": true, "poster": true, "action": true, "cite": true}

// contentHTML renders n, the content tree the markdown is made from, as
// HTML: a copy of it without scripts, styles, comments and event
// handlers, every URL resolved against docBase (documentBase), and the links go-trafilatura
// saw as marked text (links.go) turned back into <a> elements. hrefs are
// the marked links' targets by number.
func contentHTML(n *html.Node, hrefs []string, docBase string) string {
	base, err := url.Parse(docBase)
	if err != nil || !base.IsAbs() {
		base = nil
	}
	doc := goquery.NewDocumentFromNode(n).Clone()
	root := doc.Nodes[0]
	cleanHTML(root, base)
	var b strings.Builder
	if root.Type == html.DocumentNode || root.Type == html.ElementNode && (root.Data == "html" || root.Data == "body") {
		for c := root.FirstChild; c != nil; c = c.NextSibling {
			_ = html.Render(&b, c) // a strings.Builder does not fail
		}
	} else {
		_ = html.Render(&b, root)
	}
	out := linkHTML(b.String(), hrefs, base)
	return strings.TrimSpace(stripCellFill(stripLinkMarks(restoreSpaces(out)), ""))
}

// cleanHTML removes from the tree under n what dropFromHTML names,
// comments and event handlers, and resolves URLs against base.
func cleanHTML(n *html.Node, base *url.URL) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case c.Type == html.CommentNode, c.Type == html.ElementNode && dropFromHTML[c.Data]:
			n.RemoveChild(c)
		case c.Type == html.ElementNode:
			cleanAttrs(c, base)
			cleanHTML(c, base)
		}
		c = next
	}
}

func cleanAttrs(n *html.Node, base *url.URL) {
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		key := strings.ToLower(a.Key)
		switch {
		case strings.HasPrefix(key, "on"):
			continue
		case key == "href" && n.Data == "a" && leadsNowhere(a.Val) && !strings.HasPrefix(strings.TrimSpace(a.Val), "#"):
			continue // javascript: and the like
		case urlAttrs[key]:
			a.Val = absoluteURL(base, a.Val)
		case key == "srcset":
			a.Val = absoluteSrcset(base, a.Val)
		}
		kept = append(kept, a)
	}
	n.Attr = kept
}

// absoluteURL resolves ref against base; a ref that does not parse, or
// no base, leaves it as written.
func absoluteURL(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	u, err := url.Parse(ref)
	if err != nil || base == nil {
		return ref
	}
	return base.ResolveReference(u).String()
}

// absoluteSrcset resolves each candidate's URL of a srcset.
func absoluteSrcset(base *url.URL, v string) string {
	parts := strings.Split(v, ",")
	for i, p := range parts {
		fields := strings.Fields(p)
		if len(fields) == 0 {
			continue
		}
		fields[0] = absoluteURL(base, fields[0])
		parts[i] = strings.Join(fields, " ")
	}
	return strings.Join(parts, ", ")
}

// markedHTMLLink matches a marked link in rendered HTML, whose text may
// hold tags and line breaks.
var markedHTMLLink = regexp.MustCompile("\uE001([\U000F0000-\U000FFFFD])([^\uE001\uE002]*)\uE002")

// linkHTML turns marked link texts into <a> elements, or into their text
// where the link leads nowhere, as linkMarkdown does for markdown.
func linkHTML(s string, hrefs []string, base *url.URL) string {
	if len(hrefs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range markedHTMLLink.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[0]])
		number, _ := utf8.DecodeRuneInString(s[m[2]:m[3]])
		idx, text := int(number)-linkBase, s[m[4]:m[5]]
		switch {
		case idx >= len(hrefs) || strings.TrimFunc(text, isBlank) == "" || leadsNowhere(hrefs[idx]) && !isPermalink(hrefs[idx], text):
			b.WriteString(text)
		case isPermalink(hrefs[idx], text):
		default:
			b.WriteString(`<a href="` + html.EscapeString(absoluteURL(base, hrefs[idx])) + `">` + text + `</a>`)
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
