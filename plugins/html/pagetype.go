package html

import (
	"regexp"
	"strings"

	"github.com/siftd/sift/plugins/html/internal/dom"
	"golang.org/x/net/html"
)

// pageType is what a page declares itself to be, read once from its
// schema.org types (in JSON-LD or microdata), its Open Graph type and the
// software that made it. go-trafilatura's settings follow it:
//
//   - a discussion (a forum thread, a Q&A page) has its replies as content,
//     not comments to drop;
//   - a product or a list of items has its point in the details and items
//     that go-trafilatura's balanced setting prunes, so recall is favoured.
//
// So do the rules around it: threads (thread.go), reviews (reviews.go),
// other articles (articles.go), teasers, tags and promotions (teasers.go,
// tail.go, promos.go), link marks (links.go) and wider regions (widen.go).
type pageType struct {
	// discussion: a forum thread or a Q&A page, or made by forum software.
	discussion bool
	// article: declares an article type, or og:type article, or marks
	// exactly one blog post in hAtom and declares no product or list.
	article bool
	// comments: readers' comments are content: on a discussion, unless
	// the comments option says otherwise (comments.go, set by Extract).
	comments bool
	// items: declares a product or a list of items, and no article.
	items bool
	// product: declares a product, and no article.
	product bool
	// markedArticle: the one element marked as an article in microdata,
	// if exactly one is (articles.go).
	markedArticle *html.Node
}

// declarations are what a page says of itself, as found.
type declarations struct {
	jsonLD         []string // JSON-LD texts
	itemtypes      []string // microdata itemtype URLs
	ogType         string
	generator      string
	markedArticles []*html.Node
	hAtomPosts     int // elements of classes hentry and post
	// matched holds what declare found for each pattern, so that
	// classifying twice (with and without hAtom) runs each pattern over
	// the page's JSON-LD once: on pages with long JSON-LD the patterns
	// took a tenth of sift's own time per page.
	matched map[*regexp.Regexp]bool
	listed  *bool // what list found, once it was asked
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
	// listTypes in a page's JSON-LD say the page is a list. Many CMSs put
	// og:type "article" on every page, their category pages too, so a page
	// whose JSON-LD calls it a list is one unless it also declares an
	// article: the article rules had cut recipe collections and news
	// sections down to their first entries.
	listTypes = regexp.MustCompile(`(?i)"@type"\s*:\s*\[?\s*"(CollectionPage|ItemList|SearchResultsPage)\b`)
)

// pageTypeOf reads what the page under root declares.
func pageTypeOf(root *html.Node) pageType { return pageTypeWith(root, nil) }

// pageTypeWith is pageTypeOf with the ablation benchmark's switch for
// hAtom posts.
func pageTypeWith(root *html.Node, r *rules) pageType {
	var d declarations
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if isHAtomPost(n) {
				d.hAtomPosts++
			}
			switch {
			case n.Data == "script" && strings.EqualFold(attr(n, "type"), "application/ld+json"):
				if n.FirstChild != nil {
					d.jsonLD = append(d.jsonLD, n.FirstChild.Data)
				}
			case n.Data == "meta" && strings.EqualFold(attr(n, "name"), "generator"):
				d.generator = strings.TrimSpace(attr(n, "content"))
			case n.Data == "meta" && strings.EqualFold(attr(n, "property"), "og:type"):
				d.ogType = strings.ToLower(strings.TrimSpace(attr(n, "content")))
			case attr(n, "itemtype") != "":
				d.itemtypes = append(d.itemtypes, attr(n, "itemtype"))
				if isMarkedArticle(n) {
					d.markedArticles = append(d.markedArticles, n)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	p := d.classify(r.on("hatom"))
	r.note("hatom", p != d.classify(false))
	p.comments = p.discussion
	return p
}

func (d *declarations) classify(hAtom bool) pageType {
	ogProduct := strings.HasPrefix(d.ogType, "product")
	p := pageType{
		discussion: d.declare(discussionTypes) || forumSoftware.MatchString(d.generator),
		article:    d.declare(articleTypes) || d.ogType == "article" && !d.list(),
	}
	if hAtom && !p.article && d.hAtomPosts == 1 && !ogProduct && !d.declare(itemTypes) {
		p.article = true
	}
	p.items = (ogProduct || d.declare(itemTypes)) && !p.article
	p.product = (ogProduct || d.declare(productTypes)) && !p.article
	if len(d.markedArticles) == 1 {
		p.markedArticle = d.markedArticles[0]
	}
	return p
}

// isHAtomPost reports whether n is a blog post as hAtom marks one: the
// classes hentry and post together, as Blogger and WordPress write them
// on a post (a WordPress page is hentry and page). Blog platforms declare
// nothing else on many pages, and a post's page read as anything but an
// article lost it to the whole body, with the blog's header, sidebar
// widgets and readers' comments.
func isHAtomPost(n *html.Node) bool {
	var entry, post bool
	for _, c := range strings.Fields(attr(n, "class")) {
		switch c {
		case "hentry":
			entry = true
		case "post":
			post = true
		}
	}
	return entry && post
}

// declare reports whether the page declares a type re matches, in
// JSON-LD or in microdata.
func (d *declarations) declare(re *regexp.Regexp) bool {
	if ok, done := d.matched[re]; done {
		return ok
	}
	ok := matchAny(re, d.jsonLD) || matchAny(re, d.itemtypes)
	if d.matched == nil {
		d.matched = map[*regexp.Regexp]bool{}
	}
	d.matched[re] = ok
	return ok
}

// list reports whether the page's JSON-LD calls it a list (listTypes).
func (d *declarations) list() bool {
	if d.listed == nil {
		ok := matchAny(listTypes, d.jsonLD)
		d.listed = &ok
	}
	return *d.listed
}

func matchAny(re *regexp.Regexp, texts []string) bool {
	for _, t := range texts {
		if re.MatchString(t) {
			return true
		}
	}
	return false
}

// attr returns the value of n's attribute key, or "".
func attr(n *html.Node, key string) string { return dom.Attr(n, key) }

// roleOf returns n's ARIA role as browsers read it: trimmed, lower-cased.
func roleOf(n *html.Node) string {
	return strings.ToLower(strings.TrimSpace(attr(n, "role")))
}

// hasAttr reports whether n has the attribute key, whatever its value.
func hasAttr(n *html.Node, key string) bool { return dom.HasAttr(n, key) }
