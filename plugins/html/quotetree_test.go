package html

import (
	"strings"
	"testing"
)

// TestQuoteStructureKept: a list in a quote keeps its markers, an item's
// code span stays in its item, a quote in a quote is a level deeper, and a
// quote's links are written and its images left out as elsewhere, in
// main-content mode (go-trafilatura flattens a quote) as on the whole
// page.
func TestQuoteStructureKept(t *testing.T) {
	intro := "<p>" + strings.Repeat("The committee published its answer to the gardeners' letter this week. ", 4) + "</p>"
	outro := "<p>" + strings.Repeat("The gardeners will meet again next month to discuss the answer. ", 4) + "</p>"
	for _, tc := range []struct {
		name, quote string
		want        []string
	}{
		{"a list", `<blockquote><p>The committee wrote that two things matter most:</p><ul><li>water in the morning</li><li>mulch before the frost</li></ul></blockquote>`,
			[]string{"> The committee wrote that two things matter most:\n> \n> - water in the morning\n> - mulch before the frost"}},
		{"a numbered list", `<blockquote><p>The committee's steps for the season:</p><ol><li>prune the roses</li><li>feed the lawn</li></ol></blockquote>`,
			[]string{"> 1. prune the roses\n> 2. feed the lawn"}},
		{"code in an item", `<blockquote><p>The committee's settings for the timer:</p><ul><li>Set it with <code>c = 3</code> first.</li><li>Then start the pump.</li></ul></blockquote>`,
			[]string{"> - Set it with `c = 3` first.\n> - Then start the pump."}},
		{"a quote in a quote", `<blockquote><p>The committee answered the letter at length.</p><blockquote><p>Your hedges are too tall, the letter said.</p></blockquote><p>They are not, the committee wrote back.</p></blockquote>`,
			[]string{"> The committee answered the letter at length.\n> \n> > Your hedges are too tall, the letter said.\n> \n> They are not, the committee wrote back."}},
		{"links and images", `<blockquote><p>The committee pointed to <a href="/rules">the rules</a> and listed:</p><ul><li>the hedges <img src="/hedge.jpg" alt="a hedge"></li><li>the fences</li></ul></blockquote>`,
			[]string{"> The committee pointed to [the rules](https://x.example/rules) and listed:", "> - the hedges", "> - the fences"}},
	} {
		page := `<html><body><article><h1>The answer</h1>` + intro + tc.quote + outro + `</article></body></html>`
		for _, opts := range []map[string]string{nil, {OptionMainContent: "false"}} {
			res, err := extractHTML(t, []byte(page), "https://x.example/answer", opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				if !strings.Contains(res.Content, want) {
					t.Errorf("%s %v: want\n%s\nin\n%s", tc.name, opts, want, res.Content)
				}
			}
			if strings.Contains(res.Content, "hedge.jpg") {
				t.Errorf("%s %v: an image without the images option in\n%s", tc.name, opts, res.Content)
			}
		}
	}
}
