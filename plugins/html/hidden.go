package html

import (
	"regexp"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// Pages hide instructions for agents where a human reader cannot see them.
// removeHidden drops every element a browser would not show: the hidden
// attribute, aria-hidden="true", <template>, hidden inputs, inline styles
// that hide or move the element off-screen, and elements whose class or id
// a <style> block of the page hides.

// hiddenStyle matches inline declarations that make an element invisible.
var hiddenStyle = regexp.MustCompile(
	`display:none|visibility:(hidden|collapse)|opacity:0(\.0+)?(;|$|!)|font-size:0(px|em|rem|pt|%)?(;|$|!)|` +
		`(left|top|right|bottom|text-indent|margin-left|margin-top):-\d{3,}|clip:rect\(0(px)?,?0(px)?,?0(px)?,?0(px)?\)|` +
		`clip-path:inset\(50%\)|transform:scale\(0\)|(max-)?height:0(px)?(;|$|!).*overflow:hidden|overflow:hidden.*(max-)?height:0(px)?(;|$|!)`)

// hidingRule matches a rule in a <style> block that hides what it selects.
var hidingRule = regexp.MustCompile(`([^{}]+)\{([^{}]*)\}`)

// hiddenClasses are utility classes that hide by convention (Bootstrap,
// Tailwind, WordPress screen-reader text).
var hiddenClasses = map[string]bool{
	"hidden": true, "d-none": true, "sr-only": true, "visually-hidden": true,
	"visuallyhidden": true, "screen-reader-text": true, "invisible": true,
}

func removeHidden(root *html.Node) {
	doc := goquery.NewDocumentFromNode(root)
	classes, ids := styleSheetHidden(doc)
	var doomed []*html.Node
	doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		if isHidden(s.Nodes[0], classes, ids) {
			doomed = append(doomed, s.Nodes[0])
		}
	})
	for _, n := range doomed {
		if n.Parent != nil {
			n.Parent.RemoveChild(n)
		}
	}
}

func isHidden(n *html.Node, classes, ids map[string]bool) bool {
	switch n.Data {
	case "template", "noscript":
		return true
	}
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "hidden":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "type":
			if n.Data == "input" && strings.EqualFold(a.Val, "hidden") {
				return true
			}
		case "style":
			if hiddenStyle.MatchString(normalizeCSS(a.Val)) {
				return true
			}
		case "class":
			for _, c := range strings.Fields(a.Val) {
				if hiddenClasses[c] || classes[c] {
					return true
				}
			}
		case "id":
			if ids[a.Val] {
				return true
			}
		}
	}
	return false
}

// styleSheetHidden collects the classes and ids that simple rules in the
// page's <style> blocks hide (".x{display:none}", "#y, .z{visibility:hidden}").
func styleSheetHidden(doc *goquery.Document) (classes, ids map[string]bool) {
	classes, ids = map[string]bool{}, map[string]bool{}
	doc.Find("style").Each(func(_ int, s *goquery.Selection) {
		for _, m := range hidingRule.FindAllStringSubmatch(s.Text(), -1) {
			if !hiddenStyle.MatchString(normalizeCSS(m[2])) {
				continue
			}
			for _, sel := range strings.Split(m[1], ",") {
				sel = strings.TrimSpace(sel)
				switch {
				case isSimpleName(sel, '.'):
					classes[sel[1:]] = true
				case isSimpleName(sel, '#'):
					ids[sel[1:]] = true
				}
			}
		}
	})
	return classes, ids
}

// isSimpleName reports whether sel is a lone ".name" or "#name" selector.
func isSimpleName(sel string, prefix byte) bool {
	if len(sel) < 2 || sel[0] != prefix {
		return false
	}
	return !strings.ContainsAny(sel[1:], " .#:[>+~*")
}

// normalizeCSS lower-cases a declaration list and removes whitespace, so
// "Display : None" matches "display:none".
func normalizeCSS(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '\f':
			return -1
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
