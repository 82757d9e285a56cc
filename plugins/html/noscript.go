package html

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A page parsed as a browser with scripts parses it keeps each <noscript>
// as one raw string, and go-trafilatura then took that markup for text:
// sites that build their pages with scripts (Discourse forums, for one)
// put the whole page there for readers without scripts, and sift returned
// it as "\<div class=…\>" soup. A fetcher runs no
// scripts, so it is such a reader when the page is such a shell: when its
// <noscript>s hold more words than the rest of its body, those holding at
// least noscriptWords are parsed and put in their place. Otherwise the page
// is whole without them, and they go, as a browser with scripts drops them:
// they repeat the page (an article may hold its whole text there a
// second time), plead to turn scripts on, or hold tracking pixels.
const noscriptWords = 20

// openNoscript replaces each <noscript> in the page's body by its parsed
// content when the page is a shell for scripts, and removes it otherwise.
func openNoscript(root *html.Node) {
	var body *html.Node
	var found []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "noscript" {
			if body != nil {
				found = append(found, n)
			}
			return
		}
		if n.Type == html.ElementNode && n.Data == "body" {
			body = n
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	if len(found) == 0 {
		return
	}
	parsed := make([][]*html.Node, len(found))
	held := 0
	for i, n := range found {
		parsed[i] = parseNoscript(n)
		if w := fragmentWords(parsed[i]); w >= noscriptWords {
			held += w
		} else {
			adoptNoscriptImage(n, parsed[i])
			parsed[i] = nil
		}
	}
	shell := held > words(body) // words leaves <noscript> out
	for i, n := range found {
		if shell {
			for _, c := range parsed[i] {
				n.Parent.InsertBefore(c, n)
			}
		}
		n.Parent.RemoveChild(n)
	}
}

// parseNoscript parses what a <noscript> holds, in its parent's context.
func parseNoscript(n *html.Node) []*html.Node {
	var raw strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			raw.WriteString(c.Data)
		}
	}
	nodes, err := html.ParseFragment(strings.NewReader(raw.String()), n.Parent)
	if err != nil {
		return nil
	}
	return nodes
}

func fragmentWords(nodes []*html.Node) int {
	count := 0
	for _, n := range nodes {
		count += words(n)
	}
	return count
}

// noscriptSource is the attribute an image takes its <noscript> twin's
// URL in (imageSource reads it).
const noscriptSource = "data-sift-noscript-src"

// adoptNoscriptImage gives the lazy image beside the <noscript> n (its
// src a placeholder, no lazy attribute holding the image) the URL of the
// image n holds, parsed as nodes: lazy loaders ship the real image so,
// for readers without scripts, and the <noscript> goes. The image's alt
// text is taken too when it has none.
func adoptNoscriptImage(n *html.Node, nodes []*html.Node) {
	var twin *html.Node
	isImg := func(e *html.Node) bool { return e.Type == html.ElementNode && e.DataAtom == atom.Img }
	for _, c := range nodes {
		if isImg(c) {
			twin = c
		} else {
			twin = findElement(c, isImg)
		}
		if twin != nil {
			break
		}
	}
	if twin == nil {
		return
	}
	src := imageSource(twin, nil)
	if src == "" || isData(src) {
		return
	}
	img := lazyImageBeside(n)
	if img == nil {
		return
	}
	img.Attr = append(img.Attr, html.Attribute{Key: noscriptSource, Val: src})
	if strings.TrimSpace(attr(img, "alt")) == "" {
		if alt := attr(twin, "alt"); strings.TrimSpace(alt) != "" {
			img.Attr = append(withoutAttr(img.Attr, "alt"), html.Attribute{Key: "alt", Val: alt})
		}
	}
}

// lazyImageBeside is the image just before n, else just after it (blanks
// between), or the image of a <picture> there, when what a browser
// without scripts loads for it is nothing or a placeholder.
func lazyImageBeside(n *html.Node) *html.Node {
	for _, sib := range []*html.Node{elementBefore(n), elementAfter(n)} {
		img := sib
		if sib != nil && sib.DataAtom == atom.Picture {
			img = findElement(sib, func(e *html.Node) bool { return e.DataAtom == atom.Img })
		}
		if img == nil || img.DataAtom != atom.Img {
			continue
		}
		if src := imageSource(img, nil); src == "" || isPlaceholder(src) {
			return img
		}
	}
	return nil
}

// elementBefore is the element just before n, with only blanks between,
// or nil.
func elementBefore(n *html.Node) *html.Node {
	return elementBeside(n, func(c *html.Node) *html.Node { return c.PrevSibling })
}

// elementAfter is elementBefore after n.
func elementAfter(n *html.Node) *html.Node {
	return elementBeside(n, func(c *html.Node) *html.Node { return c.NextSibling })
}

// elementBeside is the first element step takes to from n, with only
// blanks between, or nil.
func elementBeside(n *html.Node, step func(*html.Node) *html.Node) *html.Node {
	for c := step(n); c != nil; c = step(c) {
		switch {
		case c.Type == html.ElementNode:
			return c
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return nil
		}
	}
	return nil
}
