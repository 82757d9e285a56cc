package visibility

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// costlyPage is a page of rules descendant selectors over a tree depth
// <div>s deep, spans paragraphs at its bottom, its whole CSS its own.
func costlyPage(rules, depth, spans int) string {
	var b strings.Builder
	b.WriteString("<html><head><style>")
	for i := range rules {
		fmt.Fprintf(&b, "div.a%d div.b%d p span{color:#fff}", i, i)
	}
	b.WriteString(`</style></head><body><div class="a1">`)
	b.WriteString(strings.Repeat(`<div class="b1">`, depth))
	for i := range spans {
		fmt.Fprintf(&b, "<p><span>x%d</span></p>", i)
	}
	b.WriteString(strings.Repeat("</div>", depth+1) + "</body></html>")
	return b.String()
}

// TestTooCostly: a page whose styles cost more than maxMatchCost to read
// is refused with ErrTooCostly (a hundred descendant rules over a tree
// 200 deep took seconds), and a page of the same shape within the bound
// is read.
func TestTooCostly(t *testing.T) {
	for _, tc := range []struct {
		name                string
		rules, depth, spans int
		wantErr             bool
	}{
		{"a hundred rules over a deep tree", 100, 200, 2000, true},
		{"a few rules over the same tree", 2, 200, 2000, false},
		{"a hundred rules over a shallow page", 100, 3, 200, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := html.Parse(strings.NewReader(costlyPage(tc.rules, tc.depth, tc.spans)))
			if err != nil {
				t.Fatal(err)
			}
			rules := PageRules(root)
			_, err = InvisibleNodes(root, rules, 1_000_000, func(*html.Node) int { return 1 })
			if got := errors.Is(err, ErrTooCostly); got != tc.wantErr {
				t.Errorf("ErrTooCostly = %v (cost %d), want %v", got, rules.cost, tc.wantErr)
			}
		})
	}
}
