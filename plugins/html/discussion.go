package html

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// Markup that says a page is a discussion (a forum thread, a Q&A page):
// its replies are the content, not comments to drop.
var (
	discussionTypes = regexp.MustCompile(`(?i)\b(DiscussionForumPosting|QAPage)\b`)
	forumSoftware   = regexp.MustCompile(`(?i)^(discourse|phpbb|vbulletin|xenforo|flarum|nodebb|invision|mybb|vanilla|simple machines)`)
)

// isDiscussion reports whether the page declares itself a discussion:
// schema.org discussion types in JSON-LD or microdata, or forum software
// in its generator meta tag.
func isDiscussion(root *html.Node) bool {
	found := false
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if found {
			return
		}
		if n.Type == html.ElementNode {
			switch {
			case n.Data == "script" && strings.EqualFold(attr(n, "type"), "application/ld+json"):
				found = n.FirstChild != nil && discussionTypes.MatchString(n.FirstChild.Data)
			case n.Data == "meta" && strings.EqualFold(attr(n, "name"), "generator"):
				found = forumSoftware.MatchString(strings.TrimSpace(attr(n, "content")))
			case attr(n, "itemtype") != "":
				found = discussionTypes.MatchString(attr(n, "itemtype"))
			}
		}
		for c := n.FirstChild; c != nil && !found; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return found
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
