package html

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestMergeTextRuns: after mergeTextRuns no two text nodes are adjacent
// and no node the converter removes is left, the text of a run is joined
// in order, across the nodes removed, and the markdown is what the
// converter makes of the page unmerged.
func TestMergeTextRuns(t *testing.T) {
	page := `<div>one<!-- c -->two<span>in<script>x</script>side</span>` +
		`three<input>four<p>para<noscript>n</noscript>graph</p>five</div>`
	ex := New().(*Extractor)
	split := func() *html.Node {
		root := parsePage(t, page)
		// Text nodes in a row, as the images option leaves them.
		div := findElement(root, func(n *html.Node) bool { return n.Data == "div" })
		for i := range 5 {
			div.AppendChild(&html.Node{Type: html.TextNode, Data: " img" + string(rune('a'+i))})
		}
		return div
	}
	div := split()
	want, err := ex.md.ConvertNode(split())
	if err != nil {
		t.Fatal(err)
	}
	mergeTextRuns(div)
	var check func(*html.Node)
	check = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if convertRemoved[converterNodeName(c)] {
				t.Errorf("%s left", converterNodeName(c))
			}
			if c.Type == html.TextNode && c.NextSibling != nil && c.NextSibling.Type == html.TextNode {
				t.Errorf("text %q and %q adjacent", c.Data, c.NextSibling.Data)
			}
			check(c)
		}
	}
	check(div)
	if got := div.FirstChild.Data; got != "onetwo" {
		t.Errorf("first run %q, want %q", got, "onetwo")
	}
	if got := div.LastChild.Data; got != "five imga imgb imgc imgd imge" {
		t.Errorf("last run %q", got)
	}
	got, err := ex.md.ConvertNode(div)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("markdown %q, want %q", got, want)
	}
	md, err := ex.markdown(context.Background(), split(), "https://example.com/")
	if err != nil || !strings.Contains(md, "five imga imgb imgc imgd imge") {
		t.Errorf("markdown %q, %v", md, err)
	}
}
