package visibility

import (
	"strings"

	"github.com/siftd/sift/plugins/html/internal/dom"
	"golang.org/x/net/html"
)

// subjectIndex indexes a list of rules by a class or id their subject
// (the selector's last compound) names: an element is matched only
// against the rules its own classes and id name and those whose subject
// names none. Most of a page's rules name classes an element does not
// have.
type subjectIndex struct {
	byName map[string][]int
	any    []int
}

// add indexes rule i, written as selector.
func (x *subjectIndex) add(i int, selector string) {
	names := subjectNames(selector)
	if len(names) == 0 || strings.ContainsRune(selector, '\\') {
		// none, or a selector written with an escape (".n\\31" is class
		// n1), whose names an element's own do not look up
		x.any = append(x.any, i)
		return
	}
	if x.byName == nil {
		x.byName = map[string][]int{}
	}
	x.byName[names[0]] = append(x.byName[names[0]], i)
}

// each calls f with every rule that may match n, until f returns false.
func (x *subjectIndex) each(n *html.Node, f func(i int) bool) {
	for _, i := range x.any {
		if !f(i) {
			return
		}
	}
	if len(x.byName) == 0 {
		return
	}
	for _, class := range strings.Fields(asciiLower(dom.Attr(n, "class"))) {
		for _, i := range x.byName["."+class] {
			if !f(i) {
				return
			}
		}
	}
	if id := dom.Attr(n, "id"); id != "" {
		for _, i := range x.byName["#"+asciiLower(id)] {
			if !f(i) {
				return
			}
		}
	}
}
