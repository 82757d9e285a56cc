package html

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A thread's point is all of its posts, and go-trafilatura, looking for one
// article, keeps the first post or the densest few: it kept the question
// of Stack Exchange pages and dropped the answers, and the
// opening post of Discourse threads without the replies. Forum and Q&A
// software marks each post with schema.org microdata (a Comment, an
// Answer, a Question; itemprop comment, suggestedAnswer, acceptedAnswer),
// and each post's parts: its author, its date and its text. On a page that
// declares a discussion and marks at least minReplies replies, the content
// is the posts in page order, each as its byline and its text.
//
// Remarks on a question or an answer (Comments inside them) are left out,
// as Q&A sites fold them away: the answers are the content.
const minReplies = 2

// replyProps and postTypes mark a post in microdata.
var (
	replyProps = []string{"comment", "suggestedanswer", "acceptedanswer", "answer"}
	postTypes  = map[string]bool{"comment": true, "answer": true, "question": true, "discussionforumposting": true}
)

// threadOf returns the page's posts as one element to render, or nil
// when it marks fewer than minReplies replies. r switches the opening
// post's rule (openingPosts) off for the ablation benchmark.
func threadOf(root *html.Node, r *rules) *html.Node {
	posts := postsOf(root)
	if posts == nil {
		return nil
	}
	if r.on("opening") {
		withOpening := openingPosts(posts)
		r.note("opening", len(withOpening) > len(posts))
		posts = withOpening
	}
	thread := element(atom.Div)
	for _, p := range posts {
		parts := partsOf(p)
		if len(parts.texts) == 0 {
			// A post without a marked text is read whole, unless it holds
			// other posts, which are read on their own; then what it holds
			// beside them is its own post (openingPart).
			switch {
			case !holdsPost(p):
				thread.AppendChild(chromeless(p))
			case r.on("opening"):
				if own := openingPart(p); own != nil {
					r.note("opening", true)
					thread.AppendChild(own)
				}
			}
			continue
		}
		if byline := strings.TrimSpace(parts.author + " " + parts.date); byline != "" {
			para := element(atom.P)
			para.AppendChild(&html.Node{Type: html.TextNode, Data: byline})
			thread.AppendChild(para)
		}
		for _, t := range parts.texts {
			thread.AppendChild(chromeless(t))
		}
	}
	return thread
}

// dropSignatures removes the signatures under a thread's posts (an element
// whose class or id names one): the same lines under every post by the
// same member, about the member, not the thread.
func dropSignatures(n *html.Node) {
	prune(n, func(c *html.Node) bool {
		return anyName(c, func(name string) bool { return strings.Contains(name, "signature") })
	})
}

// postsOf returns every post of the page in document order, or nil when
// fewer than minReplies replies are marked.
func postsOf(root *html.Node) []*html.Node {
	var posts []*html.Node
	replies := 0
	var walk func(n *html.Node, inAnswer bool)
	walk = func(n *html.Node, inAnswer bool) {
		if n.Type == html.ElementNode && isPost(n) {
			kind := schemaType(attr(n, "itemtype"))
			if inAnswer && (kind == "comment" || hasProp(n, "comment")) {
				return // a remark on a question or an answer
			}
			if isReply(n) || kind == "comment" || kind == "answer" {
				replies++
			}
			posts = append(posts, n)
			inAnswer = inAnswer || kind == "answer" || kind == "question"
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inAnswer)
		}
	}
	walk(root, false)
	if replies < minReplies {
		return nil
	}
	return posts
}

// openingPosts returns posts with the unmarked posts that open the
// thread ahead of them: the siblings before the first post that are of its
// kind (its tag and classes, items.go) and are no post and hold none, each
// read as the element in it of the kind that holds the first post's text
// (a sibling without one is left out). XenForo marks every reply a Comment
// and the opening post nothing (the thread is described in JSON-LD
// instead), in the same <article class="message message--post"> as the
// replies: the thread came out without its question. Read whole, the
// opening post brought its author's card (joined, posts, likes) along.
func openingPosts(posts []*html.Node) []*html.Node {
	first := posts[0]
	texts := partsOf(first).texts
	if len(texts) == 0 || texts[0].Parent == nil || texts[0].Parent == first {
		return posts
	}
	textKind := kind(texts[0].Parent)
	var opening []*html.Node
	for s := first.PrevSibling; s != nil; s = s.PrevSibling {
		if s.Type != html.ElementNode || kind(s) != kind(first) || isPost(s) || holdsPost(s) {
			continue
		}
		if text := matching(s, func(n *html.Node) bool { return kind(n) == textKind }); len(text) == 1 {
			opening = append([]*html.Node{text[0]}, opening...)
		}
	}
	if len(opening) == 0 {
		return posts
	}
	return append(opening, posts...)
}

// openingPart returns what a post that holds the other posts holds beside
// them, without chrome, or nil when that is no text. XenForo's themes mark
// the thread a DiscussionForumPosting around every post, its text in a
// hidden copy (which removeHidden took out), and the opening post on
// screen without a mark: the thread came out without its question.
func openingPart(post *html.Node) *html.Node {
	own := chromeless(post)
	prune(own, isPost)
	if strings.TrimFunc(textOf(own), isBlank) == "" {
		return nil
	}
	return own
}

// postParts are what a reader reads of a post: who wrote it, when, and
// what.
type postParts struct {
	author, date string
	texts        []*html.Node
}

// partsOf finds a post's parts (itemprop author; itemprop datePublished or
// dateCreated, or a <time>; itemprop text), leaving out posts nested in it.
func partsOf(post *html.Node) postParts {
	var parts postParts
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type != html.ElementNode || isPost(c):
				continue
			case hasProp(c, "text"):
				parts.texts = append(parts.texts, c)
				continue
			case hasProp(c, "author"):
				if parts.author == "" {
					parts.author = nameOf(c)
				}
				continue
			case parts.date == "" && (hasProp(c, "datepublished") || hasProp(c, "datecreated") || c.Data == "time"):
				parts.date = visibleText(c)
			}
			walk(c)
		}
	}
	walk(post)
	return parts
}

// nameOf returns the name of an author element: its itemprop="name" if it
// has one (the rest is often reputation and badges), else its text.
func nameOf(author *html.Node) string {
	var name *html.Node
	var find func(*html.Node)
	find = func(n *html.Node) {
		for c := n.FirstChild; c != nil && name == nil; c = c.NextSibling {
			if c.Type == html.ElementNode && hasProp(c, "name") {
				name = c
			}
			find(c)
		}
	}
	find(author)
	if name == nil {
		name = author
	}
	return visibleText(name)
}

// visibleText returns n's text, links unmarked, whitespace collapsed.
func visibleText(n *html.Node) string {
	return strings.Join(strings.Fields(stripLinkMarks(textOf(n))), " ")
}

func isPost(n *html.Node) bool {
	return isReply(n) || postTypes[schemaType(attr(n, "itemtype"))]
}

func isReply(n *html.Node) bool {
	for _, p := range replyProps {
		if hasProp(n, p) {
			return true
		}
	}
	return false
}

func holdsPost(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (isPost(c) || holdsPost(c)) {
			return true
		}
	}
	return false
}

// hasProp reports whether n's itemprop names prop (case-insensitively).
func hasProp(n *html.Node, prop string) bool {
	for _, p := range strings.Fields(attr(n, "itemprop")) {
		if strings.EqualFold(p, prop) {
			return true
		}
	}
	return false
}

// schemaType returns the lower-cased type name of a schema.org itemtype
// URL ("http://schema.org/Answer" → "answer"), or "".
func schemaType(itemtype string) string {
	t := strings.ToLower(strings.TrimSpace(itemtype))
	for _, prefix := range []string{"https://schema.org/", "http://schema.org/"} {
		if rest, ok := strings.CutPrefix(t, prefix); ok {
			return rest
		}
	}
	return ""
}

func element(a atom.Atom) *html.Node {
	return &html.Node{Type: html.ElementNode, Data: a.String(), DataAtom: a}
}
