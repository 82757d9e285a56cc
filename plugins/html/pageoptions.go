package html

import (
	"fmt"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"

	"github.com/siftd/sift/plugins/sdk"
)

// Per-request options that choose what part of the page is read, as
// Firecrawl's scrape options do.
const (
	// OptionMainContent "false" renders the whole visible page instead of
	// its main content: navigation, header and footer included, what a
	// reader cannot see still removed.
	OptionMainContent = "only_main_content"
	// OptionIncludeTags and OptionExcludeTags hold CSS selectors, one a
	// line. The page is cut to the elements matching an included selector
	// and stripped of those matching an excluded one, before anything else
	// reads it.
	OptionIncludeTags = "include_tags"
	OptionExcludeTags = "exclude_tags"
)

// pageOptions are a request's choices of what part of the page to read.
type pageOptions struct {
	whole            bool
	include, exclude []string
}

func readPageOptions(opts map[string]string) (pageOptions, error) {
	var po pageOptions
	switch v := opts[OptionMainContent]; v {
	case "", "true":
	case "false":
		po.whole = true
	default:
		return po, &sdk.DocError{Class: sdk.ClassBadOption, Message: fmt.Sprintf(`%s %q: want "true" or "false"`, OptionMainContent, v)}
	}
	po.include, po.exclude = selectors(opts[OptionIncludeTags]), selectors(opts[OptionExcludeTags])
	for name, sels := range map[string][]string{OptionIncludeTags: po.include, OptionExcludeTags: po.exclude} {
		for _, s := range sels {
			if _, err := cascadia.ParseGroup(s); err != nil {
				return po, &sdk.DocError{Class: sdk.ClassBadOption, Message: fmt.Sprintf("%s: %q is not a CSS selector: %v", name, s, err)}
			}
		}
	}
	return po, nil
}

func selectors(v string) []string {
	var out []string
	for _, s := range strings.Split(v, "\n") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// applyTags removes the excluded elements, then keeps only the included
// ones (outermost first, in page order) as the body's children. It warns
// when no element matched the included selectors. Every selector parsed
// (readPageOptions).
func (po pageOptions) applyTags(root *html.Node, out *sdk.ExtractResult) {
	doc := goquery.NewDocumentFromNode(root)
	for _, sel := range po.exclude {
		doc.Find(sel).Remove()
	}
	if len(po.include) == 0 {
		return
	}
	body := bodyOf(root)
	if body == nil {
		return
	}
	matched := doc.Find(strings.Join(po.include, ", "))
	kept := matched.FilterFunction(func(_ int, s *goquery.Selection) bool {
		return s.ParentsFiltered("*").FilterNodes(matched.Nodes...).Length() == 0
	})
	if kept.Length() == 0 {
		out.Warnings = append(out.Warnings, "includeTags matched no element of the page")
	}
	nodes := kept.Nodes
	for _, n := range nodes {
		n.Parent.RemoveChild(n)
	}
	for c := body.FirstChild; c != nil; {
		next := c.NextSibling
		body.RemoveChild(c)
		c = next
	}
	for _, n := range nodes {
		body.AppendChild(n)
	}
}

// prepareVisible readies the whole page for rendering: what readers
// cannot see goes (hidden elements, overlays, closed modals), as for the
// main content, but the banner, navigation and footer stay.
func prepareVisible(root *html.Node, objs *objects) (pageType, []string, error) {
	revealStreamed(root)
	openNoscript(root)
	markMath(root, objs)
	if err := removeHidden(root); err != nil {
		return pageType{}, nil, err
	}
	countFormulasTooLarge(root, objs)
	dropOverlays(root)
	dropClosedModals(root)
	unwrapLineNumberTables(root)
	layOutTables(root)
	dropOddListStarts(root)
	if objs.images {
		markImages(root, objs, objs.base)
	}
	markStrikethrough(root, objs)
	nameCodeLanguages(root)
	// The markdown converter loses a line break set in an emphasis of its
	// own after a space, as go-trafilatura does (emphasis.go).
	flattenEmphasis(root)
	breakAfterSummaries(root)
	markSpaces(root)
	page := pageTypeOf(root)
	return page, markLinks(root, true), nil
}

// visibleBody is a copy of the page's body without what renders as no
// text (scripts, styles, embedded frames and images of vector art).
func visibleBody(root *html.Node) *html.Node {
	body := bodyOf(root)
	if body == nil {
		body = root
	}
	doc := goquery.NewDocumentFromNode(body).Clone()
	doc.Find("script, style, noscript, template, iframe, svg, object, embed").Remove()
	stripLinkMarksIn(doc.Nodes[0])
	return doc.Nodes[0]
}
