package feed

import (
	"context"
	"slices"
	"strings"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// markdown converts a summary's HTML to markdown after removing what a
// reader never sees or an agent cannot use: scripts, styles, frames,
// embedded objects, forms, hidden elements; images inlined as data: become
// their alt text; links to javascript: keep only their text. Nothing in it
// runs: it is parsed, pruned and rendered. Its links, made absolute
// against base, are collected.
func (r *renderer) markdown(ctx context.Context, src, base string) string {
	nodes, err := html.ParseFragment(strings.NewReader(src), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		return strings.TrimSpace(stripTags(src))
	}
	root := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	for _, n := range nodes {
		root.AppendChild(n)
	}
	r.prune(root, base)
	out, err := r.md.ConvertNode(root, htmltomarkdown.WithContext(ctx), htmltomarkdown.WithDomain(base))
	if err != nil {
		return strings.TrimSpace(textOf(root))
	}
	return strings.TrimSpace(blankRuns(string(out)))
}

// unseen are the elements whose content is no text of the summary.
var unseen = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Iframe: true, atom.Frame: true, atom.Object: true,
	atom.Embed: true, atom.Form: true, atom.Noscript: true, atom.Template: true, atom.Svg: true,
	atom.Input: true, atom.Button: true, atom.Select: true, atom.Textarea: true,
}

func (r *renderer) prune(n *html.Node, base string) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.CommentNode || c.Type == html.ElementNode && (unseen[c.DataAtom] || hidden(c)) {
			n.RemoveChild(c)
			c = next
			continue
		}
		r.prune(c, base)
		if c.Type == html.ElementNode {
			switch c.DataAtom {
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				demote(c)
			case atom.Img:
				if src := strings.ToLower(strings.TrimSpace(attr(c, "src"))); src == "" || strings.HasPrefix(src, "data:") {
					n.InsertBefore(&html.Node{Type: html.TextNode, Data: attr(c, "alt")}, c)
					n.RemoveChild(c)
				}
			case atom.A:
				if abs, ok := r.links.Add(resolveAgainst(base, attr(c, "href"))); ok {
					setAttr(c, "href", abs)
				} else {
					unwrap(c)
				}
			}
		}
		c = next
	}
}

// headings are h1 to h6 by level.
var headings = []atom.Atom{atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6}

// demote moves a summary's heading two levels down, below the item's own
// (##), so the outline stays the feed's.
func demote(n *html.Node) {
	i := slices.Index(headings, n.DataAtom)
	n.DataAtom = headings[min(i+2, len(headings)-1)]
	n.Data = n.DataAtom.String()
}

// resolveAgainst gives Links an absolute reference when base is one.
func resolveAgainst(base, ref string) string {
	abs, ok := sdkResolve(base, ref)
	if !ok {
		return ref
	}
	return abs
}

func hidden(n *html.Node) bool {
	if _, ok := attrOK(n, "hidden"); ok {
		return true
	}
	style := strings.ReplaceAll(strings.ToLower(attr(n, "style")), " ", "")
	return strings.Contains(style, "display:none") || strings.Contains(style, "visibility:hidden")
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Key == key {
			n.Attr[i].Val = val
		}
	}
}

// unwrap replaces n by its children.
func unwrap(n *html.Node) {
	p := n.Parent
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		n.RemoveChild(c)
		p.InsertBefore(c, n)
		c = next
	}
	p.RemoveChild(n)
}

// stripTags is the text of an HTML fragment.
func stripTags(src string) string {
	nodes, err := html.ParseFragment(strings.NewReader(src), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		return src
	}
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(textOf(n))
	}
	return b.String()
}

func textOf(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	if n.Type == html.ElementNode && unseen[n.DataAtom] {
		return ""
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(textOf(c))
	}
	return b.String()
}

// blankRuns folds three or more line breaks into two.
func blankRuns(s string) string {
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	return s
}
