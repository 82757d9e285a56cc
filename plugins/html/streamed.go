package html

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// React streams server-rendered parts that finish late as hidden segments,
// <div hidden id="S:3">, after the rest of the page, and a small script
// moves each into its placeholder as it arrives: a Suspense boundary's
// <template id="B:3">, dropping the fallback (a spinner, a skeleton) that
// stood there, or a pending segment's <template id="P:3">. (The numbers
// pair up: on every WCXB page with the scripts, all 208 calls join equal
// numbers, $RC("B:n","S:n") and $RS("S:n","P:n").) A reader
// sees the segment where the placeholder stood; without this move the
// hidden-element rules dropped it, and with it the whole article of 33 WCXB
// pages (README).
//
// Only a segment whose placeholder is on the page is moved: a hidden
// S:-element with no placeholder is never shown, and stays hidden.

var (
	segmentID     = regexp.MustCompile(`^S:(\d+)$`)
	placeholderID = regexp.MustCompile(`^([BP]):(\d+)$`)
)

// revealStreamed moves every streamed segment into its placeholder.
func revealStreamed(root *html.Node) {
	placeholders := map[string]*html.Node{}
	var segments []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			id := attr(n, "id")
			if m := placeholderID.FindStringSubmatch(id); m != nil && n.Data == "template" {
				placeholders[m[2]] = n
			}
			if m := segmentID.FindStringSubmatch(id); m != nil && hasAttr(n, "hidden") {
				segments = append(segments, n)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	for _, seg := range segments {
		m := segmentID.FindStringSubmatch(attr(seg, "id"))
		if tmpl, ok := placeholders[m[1]]; ok && tmpl.Parent != nil && seg.Parent != nil {
			moveSegment(seg, tmpl)
		}
	}
}

// moveSegment puts seg's children where tmpl stands, as React's script
// does: for a boundary, the fallback between the placeholder and the
// boundary's end comment (<!--/$-->) goes first; then the placeholder and
// the empty segment go.
func moveSegment(seg, tmpl *html.Node) {
	parent := tmpl.Parent
	if end := boundaryEnd(tmpl); end != nil && strings.HasPrefix(attr(tmpl, "id"), "B:") {
		for n := tmpl.NextSibling; n != end; {
			next := n.NextSibling
			parent.RemoveChild(n)
			n = next
		}
	}
	for c := seg.FirstChild; c != nil; {
		next := c.NextSibling
		seg.RemoveChild(c)
		parent.InsertBefore(c, tmpl)
		c = next
	}
	parent.RemoveChild(tmpl)
	seg.Parent.RemoveChild(seg)
}

// boundaryEnd returns the comment that closes the Suspense boundary tmpl
// opens, skipping nested boundaries, or nil when the page has no such
// comments (some pages strip them).
func boundaryEnd(tmpl *html.Node) *html.Node {
	depth := 0
	for n := tmpl.NextSibling; n != nil; n = n.NextSibling {
		if n.Type != html.CommentNode {
			continue
		}
		switch n.Data {
		case "$", "$?", "$!":
			depth++
		case "/$":
			if depth == 0 {
				return n
			}
			depth--
		}
	}
	return nil
}
