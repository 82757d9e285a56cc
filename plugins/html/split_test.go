package html

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-shiori/dom"
	"golang.org/x/net/html"
)

// TestSplitBodyRestored: a real article whose opening paragraphs stand in
// a sibling container of the body's kind (Webflow's "rich-text-block
// main-blog-post intro" before its "main-blog-post rich-text-block",
// WCXB-dev 0332) is read from its opening, once, before the body.
func TestSplitBodyRestored(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "split-body", "input.html"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := extractHTML(t, body, "https://www.dreambigtravelfarblog.com/blog/best-car-rentals-usa", nil)
	if err != nil {
		t.Fatal(err)
	}
	md := res.Content
	opening, booking := strings.Index(md, "Trust us ... we know!"), strings.Index(md, "## How to book your chosen rental")
	if opening < 0 || booking < 0 || opening > booking || strings.Count(md, "Trust us") != 1 {
		t.Errorf("the opening is not read once before the body (at %d, body at %d):\n%s", opening, booking, md[:min(len(md), 1500)])
	}
}

// TestBodyParts: only siblings of the body's kind holding prose the
// content lacks are put back: not another post's teaser (a heading), a
// lone standfirst, a block of another kind, or what the content holds.
func TestBodyParts(t *testing.T) {
	two := `<p>OPENING-ONE whether you cross the country or tour its cities, a car of your own makes the most of your time.</p>` +
		`<p>OPENING-TWO we spent three months driving the western states and had an epic time on the open road.</p>`
	for _, tc := range []struct {
		name, before string
		kept         bool
	}{
		{"the opening in a sibling of the body's kind", `<div class="rich main intro">` + two + `</div>`, true},
		{"beyond a disclosure between them", `<div class="rich main intro">` + two + `</div><div class="note">Affiliate links.</div>`, true},
		{"another post's teaser", `<div class="rich main"><h3>Stop nesting databases</h3>` + two + `</div>`, false},
		{"a lone standfirst", `<div class="rich main intro">` + strings.SplitAfter(two, "</p>")[0] + `</div>`, false},
		{"a block of another kind", `<div class="promo">` + two + `</div>`, false},
		{"links", `<div class="rich main intro"><p><a href="/a">OPENING-ONE whether you cross the country or tour</a> its cities.</p><p><a href="/b">we spent three months driving the western states</a> and more.</p></div>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><body><div class="post">`+tc.before+`<div class="rich main">`+
				strings.Repeat(`<p>The body paragraph tells how to book a car and which company to pick.</p>`, 3)+`</div></div></body></html>`)
			picked := findElement(root, func(n *html.Node) bool {
				return attr(n, "class") == "rich main" && !hasHeading(n) && strings.Contains(textOf(n), "body paragraph")
			})
			content := dom.Clone(picked, true)
			restoreSplitBody(root, content)
			text := textOf(content)
			if kept := strings.Contains(text, "OPENING-ONE"); kept != tc.kept {
				t.Errorf("opening put back = %v, want %v: %q", kept, tc.kept, text)
			}
			if tc.kept && strings.Index(text, "OPENING-TWO") > strings.Index(text, "The body paragraph") {
				t.Errorf("the opening is not before the body: %q", text)
			}
		})
	}
}
