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
// pair up: the scripts' calls join equal numbers, $RC("B:n","S:n") and
// $RS("S:n","P:n"); React writes them in hexadecimal, so a page's
// thirty-first segment is S:1f, which a decimal pattern missed and an
// investing guide lost its middle, WCXB 4503.) A reader sees the segment where the placeholder
// stood; without this move the hidden-element rules dropped it, and with
// it whole articles.
//
// Marko (eBay's framework) streams the same way with its async
// fragments: <div id="afbrwweb16" style="display:none"> holds what belongs
// where <span id="afbrwwebph16"> stands, and $afbrwweb(16) moves it there.
// A shop's collection had its item grid in them.
//
// Only a segment whose placeholder is on the page is moved: a hidden
// segment with no placeholder is never shown, and stays hidden.

var (
	segmentID     = regexp.MustCompile(`^S:([0-9a-f]+)$`)
	placeholderID = regexp.MustCompile(`^[BP]:[0-9a-f]+$`)
	fragmentID    = regexp.MustCompile(`^af([A-Za-z_]*?)(\d+)$`)
)

// revealStreamed moves every streamed segment into its placeholder.
func revealStreamed(root *html.Node) {
	placeholders := map[string]*html.Node{}
	var segments, scripts []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if n.Data == "script" && n.FirstChild != nil {
				scripts = append(scripts, n.FirstChild)
			}
			id := attr(n, "id")
			switch {
			case placeholderID.MatchString(id) && n.Data == "template",
				strings.HasPrefix(id, "af") && strings.Contains(id, "ph"):
				placeholders[id] = n
			case segmentID.MatchString(id) && hasAttr(n, "hidden"),
				fragmentID.MatchString(id) && isHidden(n):
				segments = append(segments, n)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	if len(segments) == 0 {
		return // most pages: their scripts are not read
	}
	var code strings.Builder
	for _, s := range scripts {
		code.WriteString(s.Data)
	}
	moves := streamMoves(code.String())
	for _, seg := range segments {
		if moves != nil && segmentID.MatchString(attr(seg, "id")) && !moves[attr(seg, "id")] {
			continue // the page's scripts never show it
		}
		for _, id := range placeholderIDs(attr(seg, "id")) {
			// A placeholder inside its own segment cannot take it: the
			// browser's move fails there too, and the segment stays hidden.
			if p, ok := placeholders[id]; ok && p.Parent != nil && seg.Parent != nil && !isWithin(p, seg) {
				moveSegment(seg, p)
			}
		}
	}
}

// streamCall is a call of React's scripts that moves a segment: $RC (and
// $RR, with stylesheets) for a boundary's, $RS for a pending segment's.
var streamCall = regexp.MustCompile(`\$R[CRS]\(\s*"([BSP]:[0-9a-f]+)"\s*,\s*"([BSP]:[0-9a-f]+)"`)

// streamMoves returns the segments the page's inline scripts move, or nil
// for a page without inline scripts: a page saved without them (the
// benchmark's are) is read as its scripts would have shown it, but on a
// page with scripts, a segment no call moves is one a browser never
// shows (an outside check hid text so).
func streamMoves(scripts string) map[string]bool {
	if strings.TrimSpace(scripts) == "" {
		return nil
	}
	moves := map[string]bool{}
	for _, m := range streamCall.FindAllStringSubmatch(scripts, -1) {
		moves[m[1]], moves[m[2]] = true, true
	}
	return moves
}

// placeholderIDs returns the ids of the placeholders a segment may fill:
// React's boundary or pending segment of the same number, or Marko's
// placeholder of the same fragment.
func placeholderIDs(segment string) []string {
	if m := segmentID.FindStringSubmatch(segment); m != nil {
		return []string{"B:" + m[1], "P:" + m[1]}
	}
	if m := fragmentID.FindStringSubmatch(segment); m != nil {
		return []string{"af" + m[1] + "ph" + m[2]}
	}
	return nil
}

// moveSegment puts seg's children where tmpl stands, as the page's script
// does: for a React boundary, the fallback between the placeholder and the
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
