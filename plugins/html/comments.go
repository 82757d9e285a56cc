package html

import "golang.org/x/net/html"

// dropCommentRuns removes from n each run of minCommentRun or more
// siblings of one kind whose class or id names comments: readers' remarks
// under the content, which go-trafilatura leaves out of its own pick and
// a wider region (widen.go) must leave out too, unless the page is a
// discussion. A run, not a single element: a page's main content is never
// a run of siblings named so, while a wrapper classed "has-comments" may
// be.
const minCommentRun = 2

func dropCommentRuns(n *html.Node) {
	for _, run := range siblingRuns(n) {
		if len(run) >= minCommentRun && namesComments(run[0]) {
			for _, c := range run {
				n.RemoveChild(c)
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		dropCommentRuns(c)
	}
}
