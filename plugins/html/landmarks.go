package html

import "golang.org/x/net/html"

// A page's banner, navigation, footer and complementary asides are the
// landmarks that every page of a site repeats around its content. Screen
// readers list them so that a reader can skip them; they are not what the
// page says. go-trafilatura prunes them by its own heuristics, and what it
// lets through (a shop's mega menu, a footer of links) also moves it to
// pick other regions than the content. dropLandmarks removes them before
// it reads the page, by the roles HTML gives them (HTML-AAM): a <nav>; a
// <header> or <footer> that belongs to the page, not to an article, aside,
// main region, navigation or section; an <aside> that belongs to the page
// or its main region; and any element with one of those roles.
//
// Nothing goes from a page whose every body word sits in its landmarks:
// a shell that scripts fill, which chromeOnly (thin.go) then returns
// empty, or a page that an unclosed <aside> wraps whole. A guard that kept
// any landmark holding half of the page's words was measured and left
// out: a shop's footer can hold more than half of its words
// (bench/html/BENCHMARKS.md).
func dropLandmarks(root *html.Node) {
	marks := matching(root, isChromeLandmark)
	if len(marks) == 0 {
		return
	}
	// The body's words, not the page's: the <title> is never in a landmark.
	// Words as a reader sees them, without the space marks (spaces.go).
	inMarks := 0
	for _, n := range marks {
		inMarks += readWords(n)
	}
	if inMarks >= readWords(bodyOf(root)) {
		return
	}
	for _, n := range marks {
		n.Parent.RemoveChild(n)
	}
}

// isChromeLandmark reports whether n is the page's banner, navigation,
// footer (contentinfo) or a complementary aside.
func isChromeLandmark(n *html.Node) bool {
	switch roleOf(n) {
	case "navigation", "banner", "contentinfo", "complementary":
		return true
	}
	switch n.Data {
	case "nav":
		return true
	case "header", "footer":
		return !hasAncestor(n, "article", "aside", "main", "nav", "section")
	case "aside":
		return !hasAncestor(n, "article", "aside", "nav", "section")
	}
	return false
}

// hasAncestor reports whether one of n's ancestors is one of the elements
// named, or has the role of one (role="main", role="article").
func hasAncestor(n *html.Node, names ...string) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type != html.ElementNode {
			continue
		}
		role := roleOf(p)
		for _, name := range names {
			if p.Data == name || role == name {
				return true
			}
		}
	}
	return false
}
