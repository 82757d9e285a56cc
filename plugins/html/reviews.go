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
// of the page's words: then the reviews are what the page is, and when it
// is one review (no review marked inside it), its parts beside it (its
// siblings marked as reviews) stay with it; reviews inside a list of them
// still go, and so do the boxes of reviews beside it. A product test (a page declaring the
// product it reviews) lost its introduction and its verdict, marked
// "review-intro" and "review-verdict", short beside the review's body.
const reviewsShare = 0.5

func dropReviews(root *html.Node) {
	limit := reviewsShare * float64(words(root))
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		whole := false // a child is one review holding half the page
		for c := n.FirstChild; c != nil && !whole; c = c.NextSibling {
			whole = c.Type == html.ElementNode && isReview(c) && float64(words(c)) >= limit &&
				len(matching(c, isReview)) == 0
		}
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.Type == html.ElementNode && isReview(c) && !whole && float64(words(c)) < limit {
				n.RemoveChild(c)
			} else {
				walk(c)
			}
			c = next
		}
	}
	walk(root)
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
