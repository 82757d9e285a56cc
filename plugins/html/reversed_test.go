package html

import (
	"strings"
	"testing"
)

// TestReversedListCountsDown: a countdown (<ol reversed>) is numbered
// down from its start, or from its number of items, and an item with a
// value (<li value>) carries it, the next counting on, in main-content mode
// (go-trafilatura keeps no attribute) as on the whole page; an item's
// other lines stay indented under it; a countdown that would go below 0
// counts up as before; no mark is left in the text.
func TestReversedListCountsDown(t *testing.T) {
	intro := "<p>" + strings.Repeat("These are the finalists of this year's garden competition, ranked. ", 4) + "</p>"
	outro := "<p>" + strings.Repeat("The judges thank every gardener who took part this year. ", 4) + "</p>"
	for _, tc := range []struct {
		name, list, want string
	}{
		{"from its items", `<ol reversed><li>Bronze for the roses.</li><li>Silver for the herbs.</li><li>Gold for the orchard.</li></ol>`,
			"3. Bronze for the roses.\n2. Silver for the herbs.\n1. Gold for the orchard."},
		{"from its start", `<ol reversed start="5"><li>Bronze for the roses.</li><li>Silver for the herbs.</li><li>Gold for the orchard.</li></ol>`,
			"5. Bronze for the roses.\n4. Silver for the herbs.\n3. Gold for the orchard."},
		{"start no number", `<ol reversed start="five"><li>Bronze for the roses.</li><li>Gold for the orchard.</li></ol>`,
			"2. Bronze for the roses.\n1. Gold for the orchard."},
		{"items of several lines", `<ol reversed start="10"><li><p>Bronze for the roses.</p><ul><li>red</li><li>white</li></ul></li><li>Gold for the orchard.</li></ol>`,
			"10. Bronze for the roses.\n|\n    - red\n    - white\n09. Gold for the orchard."},
		{"an item's value, the next counting on", `<ol><li>Bronze for the roses.</li><li value="10">Silver for the herbs.</li><li>Gold for the orchard.</li></ol>`,
			"01. Bronze for the roses.\n10. Silver for the herbs.\n11. Gold for the orchard."},
		{"a list restarting at a value", `<ol><li>Bronze for the roses.</li><li>Silver for the herbs.</li><li value="1">Gold for the orchard.</li></ol>`,
			"1. Bronze for the roses.\n2. Silver for the herbs.\n1. Gold for the orchard."},
		{"a countdown with a value", `<ol reversed><li>Bronze for the roses.</li><li value="7">Silver for the herbs.</li><li>Gold for the orchard.</li></ol>`,
			"3. Bronze for the roses.\n7. Silver for the herbs.\n6. Gold for the orchard."},
		{"a value no number", `<ol start="4"><li>Bronze for the roses.</li><li value="x">Silver for the herbs.</li></ol>`,
			"4. Bronze for the roses.\n5. Silver for the herbs."},
		{"below zero", `<ol reversed start="1"><li>Bronze for the roses.</li><li>Silver for the herbs.</li><li>Gold for the orchard.</li></ol>`,
			"1. Bronze for the roses.\n2. Silver for the herbs.\n3. Gold for the orchard."},
	} {
		page := `<html><body><article><h1>Finalists</h1>` + intro + tc.list + outro + `</article></body></html>`
		for _, opts := range []map[string]string{nil, {OptionMainContent: "false"}} {
			res, err := extractHTML(t, []byte(page), "https://x.example/finalists", opts)
			if err != nil {
				t.Fatal(err)
			}
			// Parts apart by "|": the blank line inside an item has its
			// indentation on the whole page alone.
			for _, want := range strings.Split(tc.want, "|") {
				if !strings.Contains(res.Content, want) {
					t.Errorf("%s %v: want\n%s\nin\n%s", tc.name, opts, want, res.Content)
				}
			}
			if strings.ContainsAny(res.Content, string([]rune{listStartOpen, listStartClose})) {
				t.Errorf("%s %v: a list's mark left in the text", tc.name, opts)
			}
		}
	}
}
