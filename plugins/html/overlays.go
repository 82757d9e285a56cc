package html

import (
	"strings"

	"golang.org/x/net/html"
)

// An open dialog sits over the page: a cookie-consent banner, a sign-up
// prompt, a search box or a cart that the page shows before its content.
// Readers close it to read; it is not what the page says. dropOverlays
// removes the elements that declare themselves dialogs (role dialog or
// alertdialog, aria-modal="true"), unless one holds half of the page's
// words or more: then the page is its dialog (an article opened in a
// lightbox). Closed dialogs are hidden already (hidden.go).
//
// Dialogs named only in classes (modal, popup, drawer) and consent
// banners named in classes (cookie, consent) were measured and left out:
// pages name their content's wrappers so too (bench/html/BENCHMARKS.md).
func dropOverlays(root *html.Node) {
	dialogs := matching(root, isDialog)
	if len(dialogs) == 0 {
		return // most pages: their words need no counting
	}
	dropDialogs(dialogs, words(root))
}

// dropDialogs removes the dialogs that hold less than half of total
// words, and looks for dialogs inside those it keeps.
func dropDialogs(dialogs []*html.Node, total int) {
	for _, n := range dialogs {
		if 2*words(n) < total {
			n.Parent.RemoveChild(n)
		} else {
			dropDialogs(matching(n, isDialog), total)
		}
	}
}

// isDialog reports whether n declares itself a dialog.
func isDialog(n *html.Node) bool {
	switch roleOf(n) {
	case "dialog", "alertdialog":
		return true
	}
	return strings.EqualFold(strings.TrimSpace(attr(n, "aria-modal")), "true")
}
