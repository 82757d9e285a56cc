package html

import (
	"strings"

	"golang.org/x/net/html"
)

// A product page's point is the product: what it is, its details, its
// specifications. Its reviews are what comments are to an article, other
// readers' remarks, and go-trafilatura, favouring recall on product pages
// (pagetype.go), kept them. dropReviews removes from a page that declares
// a product every element marked as a review (schema.org Review, itemprop
// review, or a class or id naming reviews), unless it holds at least half
// of the page's words: then the reviews are what the page is.
const reviewsShare = 0.5

func dropReviews(root *html.Node) {
	limit := reviewsShare * float64(words(root))
	prune(root, func(n *html.Node) bool { return isReview(n) && float64(words(n)) < limit })
}

// isReview reports whether n is marked as a review or a list of them.
func isReview(n *html.Node) bool {
	switch {
	case n.Data == "body" || n.Data == "main":
		return false
	case hasProp(n, "review") || schemaType(attr(n, "itemtype")) == "review":
		return true
	}
	return anyName(n, func(name string) bool {
		return strings.Contains(name, "review") && !strings.Contains(name, "preview")
	})
}
