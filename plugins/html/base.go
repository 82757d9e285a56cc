package html

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// documentBase is the URL the page's relative URLs resolve against, as a
// browser resolves them: the href of the first <base> that has one,
// itself resolved against pageURL, else pageURL. The links and images
// formats (firecrawl) honour <base> too, so the markdown and HTML must, or
// the same link would lead to two places. A base that is not http(s)
// (javascript:, data:) or does not parse is passed over: relative links
// would lead nowhere an agent can fetch.
func documentBase(root *html.Node, pageURL string) string {
	b := findElement(root, func(n *html.Node) bool {
		return n.DataAtom == atom.Base && hasAttr(n, "href")
	})
	if b == nil {
		return pageURL
	}
	ref, err := url.Parse(strings.TrimSpace(attr(b, "href")))
	if err != nil {
		return pageURL
	}
	if page, err := url.Parse(pageURL); err == nil {
		ref = page.ResolveReference(ref)
	}
	if ref.Scheme != "http" && ref.Scheme != "https" || ref.Host == "" {
		return pageURL
	}
	return ref.String()
}
