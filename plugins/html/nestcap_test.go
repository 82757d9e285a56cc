package html

import (
	"strings"
	"testing"
)

// TestCapNesting: quotes and lists nested past maxBlockNesting come out as
// plain lines at the deepest level markdown nests, their text whole and
// in order; those up to it nest as the page does.
func TestCapNesting(t *testing.T) {
	for _, tc := range []struct {
		name, open, shut, deepest string
	}{
		{"quotes", "<blockquote><p>level</p>", "</blockquote>", strings.Repeat("> ", maxBlockNesting) + "level"},
		{"lists", "<ul><li>level", "</li></ul>", strings.Repeat("  ", maxBlockNesting-1) + "- level"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			depth := maxBlockNesting + 20
			page := "<html><body>" + strings.Repeat(tc.open, depth) + "<p>THE-END</p>" + strings.Repeat(tc.shut, depth) + "</body></html>"
			res, err := extractHTML(t, []byte(page), pageURL, map[string]string{OptionMainContent: "false"})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Count(res.Content, "level"); got != depth {
				t.Errorf("%d of %d levels' text kept:\n%s", got, depth, res.Content)
			}
			if !strings.Contains(res.Content, "THE-END") {
				t.Error("the deepest text was lost")
			}
			if !strings.Contains(res.Content, tc.deepest) {
				t.Errorf("no line nested %d deep (%q):\n%s", maxBlockNesting, tc.deepest, res.Content)
			}
			if strings.Contains(res.Content, strings.Repeat("> ", maxBlockNesting+1)) || strings.Contains(res.Content, strings.Repeat("  ", maxBlockNesting)+"- ") {
				t.Errorf("nested past %d:\n%s", maxBlockNesting, res.Content)
			}
		})
	}
}
