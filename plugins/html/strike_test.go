package html

import (
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// TestStrikethrough: struck-out text is ~~text~~ (and <del> in HTML),
// in a paragraph and in a table's cell, on either path; it came out as
// plain text, which says the opposite, or not at all in a cell. A hidden
// one stays hidden. One that is all the text of a <div> is left as it was
// (a listing's old price; the benchmarks' truths leave it out).
func TestStrikethrough(t *testing.T) {
	for _, tc := range []struct {
		name, markup string
		opts         map[string]string
		want, gone   []string
	}{
		{"del and s in a sentence", `<p>The price was <del>$120</del> and is now <s>$100</s> $90 for the spring.</p>`, nil,
			[]string{"was ~~$120~~ and is now ~~$100~~ $90"}, nil},
		{"strike", `<p>We will <strike>meet on Monday</strike> meet on Tuesday at the orchard gate.</p>`, nil,
			[]string{"will ~~meet on Monday~~ meet on Tuesday"}, nil},
		{"spaces inside kept outside, formatting inside", "<p>Ladders:<del> <b>three</b>\n metres </del>long ones.</p>", nil,
			[]string{"Ladders: ~~three metres~~ long ones."}, nil},
		{"markdown in it escaped", `<p>Use <del>*all* of_it ~now~</del> then.</p>`, nil,
			[]string{`Use ~~\*all\* of\_it \~now\~~~ then.`}, nil},
		{"in a table's cell", `<table><tr><th>Tool</th><th>Price</th></tr><tr><td>Saw</td><td><del>$40</del> $30</td></tr><tr><td>Shears</td><td><s>$25</s></td></tr></table>`, nil,
			[]string{"| ~~$40~~ $30 |", "| ~~$25~~", "| Saw ", "| Shears "}, nil},
		{"the whole page", `<p>The price was <del>$120</del> and is now $90.</p>`, map[string]string{OptionMainContent: "false"},
			[]string{"was ~~$120~~ and"}, nil},
		{"hidden stays hidden", `<p>The price is <del style="display:none">secret</del> $90 for the spring.</p>`, nil,
			nil, []string{"secret", "~~"}},
		{"alone in a div left to go-trafilatura", `<div class="price"><del><span>$679.00</span></del></div><p>Now $599 for the spring, while the stock lasts at the shop.</p>`, nil,
			nil, []string{"~~$679.00~~"}},
		{"a link inside left to the converter", `<p>See <del><a href="/old">the old page</a></del> here.</p>`, nil,
			[]string{"the old page"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(imagePage(tc.markup)), pageURL, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, tc.want, tc.gone)
		})
	}
	res, err := extractHTML(t, []byte(imagePage(`<p>The price was <del>$120</del> and is now $90.</p>`)), pageURL, map[string]string{sdk.OptionHTML: "true"})
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.HTML, []string{"was <del>$120</del> and"}, nil)
}
