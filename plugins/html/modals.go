package html

import (
	"strings"

	"golang.org/x/net/html"
)

// A framework's modal is closed until a script opens it: Bootstrap's and
// Bulma's stylesheets give .modal display: none, and show it only with a
// state class (Bootstrap's show or in, Bulma's is-active) or an inline
// display: block that the script sets. A fetcher runs no script and reads
// no framework stylesheet, so the closed modal's text (a sign-up prompt, a
// "become an author" notice, a login form) came out with the page
// wherever the content was widened to the body. dropClosedModals removes
// the elements laid out as such a modal: the class modal, and inside it
// the class modal-dialog or modal-content, which Bootstrap and Bulma
// write; a class that only says modal is no modal (pages name their
// content's wrappers so, overlays.go). A modal in an open state stays,
// and so does one that holds half of the page's words or more: then the
// page is its modal.
func dropClosedModals(root *html.Node) {
	modals := matching(root, isClosedModal)
	if len(modals) == 0 {
		return
	}
	total := words(root)
	for _, n := range modals {
		if n.Parent != nil && 2*words(n) < total {
			n.Parent.RemoveChild(n)
		}
	}
}

// isClosedModal reports whether n is laid out as a framework's modal and
// is not in an open state.
func isClosedModal(n *html.Node) bool {
	if n.Type != html.ElementNode || !hasClassToken(n, "modal") {
		return false
	}
	for _, class := range strings.Fields(strings.ToLower(attr(n, "class"))) {
		switch class {
		case "show", "in", "is-active":
			return false
		}
	}
	if style := strings.ToLower(strings.ReplaceAll(attr(n, "style"), " ", "")); strings.Contains(style, "display:block") || strings.Contains(style, "display:flex") {
		return false
	}
	return len(matching(n, func(c *html.Node) bool {
		return hasClassToken(c, "modal-dialog") || hasClassToken(c, "modal-content")
	})) > 0
}

// hasClassToken reports whether one of n's classes is name, in any case.
func hasClassToken(n *html.Node, name string) bool {
	for _, class := range strings.Fields(attr(n, "class")) {
		if strings.EqualFold(class, name) {
			return true
		}
	}
	return false
}
