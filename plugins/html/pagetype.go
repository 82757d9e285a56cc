package html

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// pageType is what a page declares about itself: its schema.org types (in
// JSON-LD or microdata), its Open Graph type and the software that made
// it. Two rules read it:
//
//   - a discussion (a forum thread, a Q&A page) has its replies as content,
//     not comments to drop: WCXB forums 0.566 → 0.571;
//   - a product or a list of items has its point in the details and items
//     that go-trafilatura's balanced setting prunes, so recall is favoured:
//     WCXB 0.818 → 0.820 (README).
type pageType struct {
	types     []string // schema.org types, JSON-LD texts and itemtype URLs
	ogType    string
	generator string
}

var (
	discussionTypes = regexp.MustCompile(`(?i)\b(DiscussionForumPosting|QAPage)\b`)
	forumSoftware   = regexp.MustCompile(`(?i)^(discourse|phpbb|vbulletin|xenforo|flarum|nodebb|invision|mybb|vanilla|simple machines)`)
	// itemTypes match JSON-LD ("@type": "Product") and microdata
	// (schema.org/Product) declarations, not a product mentioned inside
	// an article's markup.
	itemTypes    = regexp.MustCompile(`(?i)("@type"\s*:\s*\[?\s*"|schema\.org/)(Product|ItemList|CollectionPage|SearchResultsPage|OfferCatalog)\b`)
	productTypes = regexp.MustCompile(`(?i)("@type"\s*:\s*\[?\s*"|schema\.org/)Product\b`)
	// articleTypes mark a page as an article even when it also lists items
	// (news sites declare their related stories as an ItemList).
	articleTypes = regexp.MustCompile(`(?i)("@type"\s*:\s*\[?\s*"|schema\.org/)(Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|TechArticle|LiveBlogPosting)\b`)
)

// pageTypeOf reads what the page under root declares.
func pageTypeOf(root *html.Node) pageType {
	var p pageType
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "script" && strings.EqualFold(attr(n, "type"), "application/ld+json"):
				if n.FirstChild != nil {
					p.types = append(p.types, n.FirstChild.Data)
				}
			case n.Data == "meta" && strings.EqualFold(attr(n, "name"), "generator"):
				p.generator = strings.TrimSpace(attr(n, "content"))
			case n.Data == "meta" && strings.EqualFold(attr(n, "property"), "og:type"):
				p.ogType = strings.ToLower(strings.TrimSpace(attr(n, "content")))
			case attr(n, "itemtype") != "":
				p.types = append(p.types, attr(n, "itemtype"))
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return p
}

// discussion reports whether the page declares itself a forum thread or
// a Q&A page, or was made by forum software.
func (p pageType) discussion() bool {
	return p.declares(discussionTypes) || forumSoftware.MatchString(p.generator)
}

// items reports whether the page declares itself a product or a list of
// items, and not an article.
func (p pageType) items() bool {
	return (p.declares(itemTypes) || strings.HasPrefix(p.ogType, "product")) && !p.article()
}

// article reports whether the page declares itself an article.
func (p pageType) article() bool {
	return p.declares(articleTypes) || p.ogType == "article"
}

// product reports whether the page declares itself a product, and not an
// article.
func (p pageType) product() bool {
	return (p.declares(productTypes) || strings.HasPrefix(p.ogType, "product")) && !p.article()
}

func (p pageType) declares(re *regexp.Regexp) bool {
	for _, t := range p.types {
		if re.MatchString(t) {
			return true
		}
	}
	return false
}

// attr returns the value of n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// hasAttr reports whether n has the attribute key, whatever its value.
func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}
