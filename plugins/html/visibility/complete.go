package visibility

import (
	"strings"

	"github.com/siftd/sift/plugins/html/internal/dom"
	"golang.org/x/net/html"
)

// A page is read as a browser reads it (backdrop.go, sheetcolour.go) only
// when its own <style>s are all its CSS: it links no stylesheet, imports
// none, and runs no script that may restyle it. The unpainted page is then
// the browser's white, unless the page asks for a dark colour scheme.

// restylers are the elements by which a page may take CSS sift does not
// read.
var restylers = map[string]bool{"link": true, "script": true, "noscript": true, "meta": true}

// restyles reports whether el gives the page CSS sift does not read: a
// <link> or a <noscript> naming a stylesheet (a preload's onload turning
// it into one), a script loaded from a file, or one whose code names
// styles, classes or attributes (a loader's createElement('link'), a
// theme switcher setting data-theme).
func restyles(el *html.Node) bool {
	switch el.Data {
	case "link", "noscript":
		return namesStylesheet(el)
	case "script":
		if !isCode(el) {
			return false
		}
		if dom.HasAttr(el, "src") {
			return true
		}
		code := asciiLower(textUnder(el))
		for _, word := range []string{"style", "class", ".css", "setattribute", "dataset"} {
			if strings.Contains(code, word) {
				return true
			}
		}
		return false
	}
	return false
}

// isCode reports whether a <script> is code a browser runs, not data
// (JSON-LD, a template).
func isCode(script *html.Node) bool {
	t := asciiLower(strings.TrimSpace(dom.Attr(script, "type")))
	return t == "" || t == "module" || strings.Contains(t, "javascript") || strings.Contains(t, "ecmascript")
}

// namesStylesheet reports whether el's attributes or text name a
// stylesheet or a .css file.
func namesStylesheet(el *html.Node) bool {
	names := func(s string) bool {
		s = asciiLower(s)
		return strings.Contains(s, "stylesheet") || strings.Contains(s, ".css") || s == "style"
	}
	for _, a := range el.Attr {
		if names(a.Val) {
			return true
		}
	}
	return names(textUnder(el))
}

// textUnder returns the text of el's text children.
func textUnder(el *html.Node) string {
	var b strings.Builder
	for c := el.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// importsSheet reports whether a lower-cased stylesheet imports another,
// its at-keyword written plainly or with an escape ("@\69mport").
func importsSheet(lower string) bool {
	return strings.Contains(lower, "@import") || strings.Contains(lower, `@\`)
}

// asksDarkScheme reports whether el is a <meta name="color-scheme"> that
// offers a dark scheme.
func asksDarkScheme(el *html.Node) bool {
	return el.Data == "meta" && asciiLower(strings.TrimSpace(dom.Attr(el, "name"))) == "color-scheme" &&
		strings.Contains(asciiLower(dom.Attr(el, "content")), "dark")
}

// declaresDarkScheme reports whether a lower-cased stylesheet declares a
// color-scheme property (not the prefers-color-scheme media feature)
// offering a dark scheme.
func declaresDarkScheme(lower string) bool {
	for _, i := range wordOffsets(lower, "color-scheme") {
		if i > 0 && isNameByte(lower[i-1]) {
			continue
		}
		rest := strings.TrimLeft(lower[i+len("color-scheme"):], " \t\r\n")
		if !strings.HasPrefix(rest, ":") {
			continue
		}
		if end := strings.IndexAny(rest, ";}"); end >= 0 {
			rest = rest[:end]
		}
		if strings.Contains(rest, "dark") {
			return true
		}
	}
	return false
}
