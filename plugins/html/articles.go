package html

import "golang.org/x/net/html"

// A page that marks one element as its article in microdata (itemscope,
// itemtype schema.org/BlogPosting, NewsArticle, …) says where its article
// is. Its other <article> elements are other articles: teasers, related
// posts, a blog's latest entries. go-trafilatura weighed them with the
// page's article, and a blog post came back with several more.
// dropOtherArticles removes, on a page declaring an article, every
// <article> that neither holds nor sits inside the marked one (pageType's
// markedArticle: exactly one element is marked), when it holds markedWords
// or more: a mark around a headline alone says little about where the text
// is.
const markedWords = 100

func dropOtherArticles(root, article *html.Node) {
	if article == nil || words(article) < markedWords {
		return
	}
	prune(root, func(n *html.Node) bool {
		return n.Data == "article" && !isWithin(n, article) && !isWithin(article, n)
	})
}

// isMarkedArticle reports whether n is marked in microdata as an article.
func isMarkedArticle(n *html.Node) bool {
	return hasAttr(n, "itemscope") && articleTypes.MatchString(attr(n, "itemtype"))
}
