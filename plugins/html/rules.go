package html

import (
	"hash/fnv"

	"golang.org/x/net/html"
)

// ruleNames are the names of the rules sift adds to go-trafilatura that
// the ablation benchmark switches off one at a time (ablation_test.go,
// make bench), in the order a page meets them. The README's index of the
// rules uses the same names. The hidden-text rules that guard against
// instructions for agents (hidden elements, invisible text) are not among
// them: they stay whatever they cost.
func ruleNames() []string {
	return []string{
		"streamed", "noscript", "cloaks", "panels", "disclosures", "tabcode", "tablabels", "menus", "overlays", "modals", "strike", "cells", "liststart", "pre",
		"emphasis", "spaces", "breaks", "hatom", "landmarks", "links", "reviews", "articles", "intext",
		"comments", "density", "recall", "thread", "opening", "echo", "codeblocks", "separate", "rejoin", "thin",
		"widen", "signatures", "teasers", "split", "heading-levels", "section-headings",
		"title-heading", "quotes", "itemlines", "heading-markers", "tidy", "tail", "lonelinks", "titleonly", "chromeonly",
	}
}

// rules switches rules off for the ablation benchmark and records which
// rules changed a page. The extractor's own is nil: every rule on,
// nothing recorded.
type rules struct {
	off map[string]bool
	// fired, when not nil, collects the rules that changed something on
	// the page: with a rule that changed nothing switched off, the output
	// is the same, so the benchmark runs a page again only without the
	// rules that fired on it.
	fired map[string]bool
}

// on reports whether the rule called name applies.
func (r *rules) on(name string) bool { return r == nil || !r.off[name] }

// note records that the rule called name changed the page.
func (r *rules) note(name string, changed bool) {
	if changed && r != nil && r.fired != nil {
		r.fired[name] = true
	}
}

// apply runs step on n unless the rule called name is off; when tracing,
// it records whether step changed n.
func (r *rules) apply(name string, n *html.Node, step func(*html.Node)) {
	switch {
	case !r.on(name) || n == nil:
	case r == nil || r.fired == nil:
		step(n)
	default:
		before := treeHash(n)
		step(n)
		r.note(name, treeHash(n) != before)
	}
}

// treeHash fingerprints the tree under n: its nodes' types, names,
// attributes and text, in order.
func treeHash(n *html.Node) uint64 {
	h := fnv.New64a()
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		_, _ = h.Write([]byte{byte(n.Type), 0})
		_, _ = h.Write([]byte(n.Data))
		for _, a := range n.Attr {
			_, _ = h.Write([]byte{1})
			_, _ = h.Write([]byte(a.Key))
			_, _ = h.Write([]byte{2})
			_, _ = h.Write([]byte(a.Val))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		_, _ = h.Write([]byte{3})
	}
	walk(n)
	return h.Sum64()
}
