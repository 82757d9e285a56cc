package html

import (
	"fmt"

	"golang.org/x/net/html"

	"github.com/siftd/sift/plugins/sdk"
)

// OptionComments "true" keeps readers' comment sections on every page,
// "false" leaves them out everywhere; unset, they are kept on discussions
// (forums, Q&A pages), where the replies are the page, and left out
// elsewhere: the default measured best on the development sets
// (bench/html/BENCHMARKS.md).
const OptionComments = "comments"

// commentChoice is the comments option: unset, true or false.
type commentChoice int

const (
	commentsOnDiscussions commentChoice = iota
	commentsEverywhere
	commentsNowhere
)

func commentsOption(opts map[string]string) (commentChoice, error) {
	switch v := opts[OptionComments]; v {
	case "":
		return commentsOnDiscussions, nil
	case "true":
		return commentsEverywhere, nil
	case "false":
		return commentsNowhere, nil
	default:
		return 0, &sdk.DocError{Class: sdk.ClassBadOption, Message: fmt.Sprintf(`%s %q: want "true" or "false"`, OptionComments, v)}
	}
}

// keep reports whether a page's comments are content.
func (c commentChoice) keep(discussion bool) bool {
	return c == commentsEverywhere || c == commentsOnDiscussions && discussion
}

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
