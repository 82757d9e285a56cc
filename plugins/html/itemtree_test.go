package html

import (
	"strings"
	"testing"
)

// TestItemLinesKept: a block in a list item after its text (code in a
// <div> or a <p>) stands on a line of its own, and the text after it stays
// after it, in main-content mode (go-trafilatura runs an item's
// descendants into its text) as on the whole page.
func TestItemLinesKept(t *testing.T) {
	intro := "<p>" + strings.Repeat("Set the irrigation timer up before the first warm week of spring. ", 4) + "</p>"
	outro := "<p>" + strings.Repeat("The timer then waters the beds every morning at six. ", 4) + "</p>"
	for _, tc := range []struct {
		name, list string
		want       []string // in this order
	}{
		{"code in a div", `<ul><li>Set the cycle<div><code>cycle = 3</code></div></li><li>Start the pump.</li></ul>`,
			[]string{"- Set the cycle\n", "\n  `cycle = 3`\n- Start the pump."}},
		{"code in a paragraph", `<ul><li>Set the cycle<p><code>cycle = 3</code></p></li><li>Start the pump.</li></ul>`,
			[]string{"- Set the cycle\n", "\n  `cycle = 3`\n- Start the pump."}},
		{"text after the block", `<ol><li>Set the cycle<div><code>cycle = 3</code></div> and save it.</li><li>Start the pump.</li></ol>`,
			[]string{"1. Set the cycle\n", "\n   `cycle = 3`\n", "\n   and save it.\n2. Start the pump."}},
		{"a link around a block", `<ul><li><a href="/timers/basic"><div>Basic timer</div></a><div>Waters two beds every morning, for small gardens.</div></li><li><a href="/timers/pro"><div>Pro timer</div></a><div>Waters ten beds on a schedule of their own, for allotments.</div></li></ul>`,
			[]string{"- [Basic timer](https://x.example/timers/basic)\n", "\n  Waters two beds every morning, for small gardens.\n- [Pro timer](https://x.example/timers/pro)\n"}},
		{"a paragraph and a block", `<ul><li><p>Set the cycle</p><div><code>cycle = 3</code></div></li><li>Start the pump.</li></ul>`,
			[]string{"- Set the cycle\n", "\n  `cycle = 3`\n- Start the pump."}},
	} {
		page := `<html><body><article><h1>The timer</h1>` + intro + tc.list + outro + `</article></body></html>`
		for _, opts := range []map[string]string{nil, {OptionMainContent: "false"}} {
			res, err := extractHTML(t, []byte(page), "https://x.example/timer", opts)
			if err != nil {
				t.Fatal(err)
			}
			rest := res.Content
			for _, want := range tc.want {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Errorf("%s %v: want\n%q\nin order in\n%s", tc.name, opts, want, res.Content)
					break
				}
				rest = rest[i+len(want):]
			}
		}
	}
}
