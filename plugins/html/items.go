package html

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// What makes siblings a run of items (itemRegion).
const (
	minItems     = 4
	minItemWords = 3.0 // on average
	linkedShare  = 0.75
	// minPlainShare of an item's words are not a link's: a menu is
	// nothing but links, a card has a price or a summary beside its link.
	minPlainShare = 0.2
)

// itemGroup is a run of items and the words they hold.
type itemGroup struct {
	items []*html.Node
	words int
	// most is the item that holds the most words.
	most *html.Node
}

// maxItemShare of a run's words is the most one item may hold and the run
// still be items around content: a page's columns are one long column of
// text beside short ones of links (WebMD's article beside its menus and
// "related" boxes, four unclassed <div>s). Measured in BENCHMARKS.md.
const maxItemShare = 0.5

// maxColumns is the most columns a page is taken to have.
const maxColumns = 5

// columnsAround reports whether the run is the page's columns around
// content: a few (maxColumns) unclassed siblings, one of which holds more than maxItemShare of the run's words and
// most of the opening of the text go-trafilatura picked (its first
// openingWords, as word trigrams: go-trafilatura moves bylines and dates)
// lies in that item. Widening to the run would add the other columns.
func (g *itemGroup) columnsAround(picked *html.Node) bool {
	if picked == nil || len(g.items) > maxColumns || attr(g.items[0], "class") != "" || float64(words(g.most)) <= maxItemShare*float64(g.words) {
		return false
	}
	opening := trigrams(plainWords(picked, openingWords))
	if len(opening) == 0 {
		return false
	}
	in := map[string]bool{}
	for _, t := range trigrams(plainWords(g.most, -1)) {
		in[t] = true
	}
	found := 0
	for _, t := range opening {
		if in[t] {
			found++
		}
	}
	return 2*found > len(opening)
}

// openingWords is how much of a text's start columnsAround looks for.
const openingWords = 40

// trigrams returns the runs of three words of words, each as one string.
func trigrams(words []string) []string {
	var out []string
	for i := 0; i+3 <= len(words); i++ {
		out = append(out, words[i]+" "+words[i+1]+" "+words[i+2])
	}
	return out
}

// plainWords returns the first limit (all when negative) runs of letters
// and digits in the text a reader sees under n: no scripts or styles, no
// link marks or punctuation, element boundaries as spaces, so that two
// copies of one text compare alike.
func plainWords(n *html.Node, limit int) []string {
	var out []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case limit >= 0 && len(out) >= limit:
			return
		case n.Type == html.TextNode:
			for _, w := range strings.FieldsFunc(n.Data, isNotPlainWordRune) {
				if limit < 0 || len(out) < limit {
					out = append(out, w)
				}
			}
			return
		case n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style" || n.Data == "template" || n.Data == "noscript"):
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func isNotPlainWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// itemRegion finds the page's largest run of repeated items outside its
// chrome: minItems or more siblings of one kind (tag and classes), most of
// which link somewhere, that say something beside their links — the cards
// of a shop's grid, the entries of an index, the posts of a thread. Runs of
// comments count only when comments is set.
func itemRegion(root *html.Node, comments bool) *itemGroup {
	var best *itemGroup
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "nav", "header", "footer", "aside", "script", "style", "template", "svg", "select", "head":
				return
			}
			if g := bestGroup(n, comments); g != nil && (best == nil || g.words > best.words) {
				best = g
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return best
}

// bestGroup returns the largest group of n's children that looks like items.
func bestGroup(n *html.Node, comments bool) *itemGroup {
	var best *itemGroup
	for _, items := range siblingRuns(n) {
		if len(items) < minItems || !comments && (namesComments(n) || namesComments(items[0])) {
			continue
		}
		w, lw, linked := 0, 0, 0
		var most *html.Node
		mostWords := 0 // most's
		for _, it := range items {
			all, inLinks := countWords(it, false)
			w, lw = w+all, lw+inLinks
			if all > mostWords {
				most, mostWords = it, all
			}
			if holdsLink(it) {
				linked++
			}
		}
		if float64(linked) < linkedShare*float64(len(items)) || float64(w) < minItemWords*float64(len(items)) ||
			float64(w-lw) < minPlainShare*float64(w) {
			continue
		}
		if best == nil || w > best.words {
			best = &itemGroup{items: items, words: w, most: most}
		}
	}
	return best
}

// namesComments reports whether n's class or id names comments: readers'
// remarks are no items of the page (and go-trafilatura leaves them out too).
func namesComments(n *html.Node) bool {
	return anyName(n, func(name string) bool { return strings.Contains(name, "comment") })
}

// anyName reports whether one of n's classes or its id, lower-cased,
// satisfies match.
func anyName(n *html.Node, match func(string) bool) bool {
	for _, name := range append(strings.Fields(attr(n, "class")), attr(n, "id")) {
		if match(strings.ToLower(name)) {
			return true
		}
	}
	return false
}

// siblingRuns groups n's element children by kind, in the order each kind
// first appears (so that of two equal runs the first on the page wins,
// run after run).
func siblingRuns(n *html.Node) [][]*html.Node {
	var runs [][]*html.Node
	index := map[string]int{}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		k := kind(c)
		i, ok := index[k]
		if !ok {
			i = len(runs)
			index[k] = i
			runs = append(runs, nil)
		}
		runs[i] = append(runs[i], c)
	}
	return runs
}

// kind names what sort of sibling n is: its tag and its classes.
func kind(n *html.Node) string {
	classes := strings.Fields(attr(n, "class"))
	slices.Sort(classes)
	return n.Data + "." + strings.Join(classes, ".")
}

// holdsLink reports whether n is or holds a link.
func holdsLink(n *html.Node) bool {
	if n.Type == html.ElementNode && n.Data == "a" && hasAttr(n, "href") {
		return true
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if holdsLink(c) {
			return true
		}
	}
	return false
}

// render returns the group's items as one element, without their chrome.
func (g *itemGroup) render() *html.Node {
	out := element(atom.Div)
	for _, it := range g.items {
		out.AppendChild(chromeless(it))
	}
	return out
}

// countWords counts the words of n's text, and those inside links, without
// the link marks (links.go), which stand between words as words of their
// own.
func countWords(n *html.Node, inLink bool) (all, inLinks int) {
	switch {
	case n.Type == html.TextNode:
		for field := range strings.FieldsSeq(n.Data) {
			if strings.ContainsFunc(field, isNotLinkMark) {
				all++
			}
		}
		if inLink {
			inLinks = all
		}
		return all, inLinks
	case n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style" || n.Data == "template" || n.Data == "noscript"):
		return 0, 0
	}
	inLink = inLink || n.Type == html.ElementNode && n.Data == "a"
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		a, l := countWords(c, inLink)
		all, inLinks = all+a, inLinks+l
	}
	return all, inLinks
}
