// Package dom holds the small readings of an HTML tree that the html
// plugin's packages share: an element's attributes and the elements under
// a node that match a test.
package dom

import "golang.org/x/net/html"

// Attr returns the value of n's attribute key, or "".
func Attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// HasAttr reports whether n has the attribute key, whatever its value.
func HasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// Matching returns the elements under n that match reports, without
// looking into them.
func Matching(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var found []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && match(c) {
			found = append(found, c)
		} else {
			found = append(found, Matching(c, match)...)
		}
	}
	return found
}
