package html

import (
	"strings"
	"testing"
)

const (
	menu = `<div class="menu"><a href="/a">Shoes</a><a href="/b">Bags</a><a href="/c">Hats</a><a href="/d">Socks</a><a href="/e">Coats</a><a href="/f">Belts</a></div>`
	grid = `<ul class="grid">` +
		`<li class="card"><a href="/p/1">Trail boot</a> waterproof leather $170</li>` +
		`<li class="card"><a href="/p/2">Road shoe</a> light mesh upper $120</li>` +
		`<li class="card"><a href="/p/3">Camp sandal</a> quick drying straps $60</li>` +
		`<li class="card"><a href="/p/4">Winter boot</a> insulated to minus thirty $210</li></ul>`
)

func sections(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(`<section><h2>Feature ` + string(rune('A'+i)) + `</h2><p>SECTION-` + string(rune('A'+i)) +
			` explains what the service does for a team and how it is priced for them.</p></section>`)
	}
	return b.String()
}

func TestWiderContent(t *testing.T) {
	pickedOne := `<p>SECTION-A explains what the service does for a team and how it is priced for them.</p>`
	tests := []struct {
		name, head, body string
		picked           string   // default pickedOne
		want             []string // in the wider content; none: no wider content
		gone             []string
	}{
		{"the main region of a service page", "",
			`<header>Site</header><main><nav>In this page</nav>` + sections(4) + `</main><footer>Legal</footer>`,
			"", []string{"SECTION-A", "SECTION-B", "SECTION-C", "SECTION-D"}, []string{"In this page", "Legal", "Site"}},
		{"the posts of a thread not marked in microdata, named comments", `<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>`,
			`<main>` + strings.Repeat(`<article class="ipsComment"><a href="/u/1">Ola</a><p>POST the same trouble here after the update, and the workaround from the docs did not help at all.</p></article>`, 4) + `</main>`,
			`<p>POST the same trouble here after the update</p>`, []string{"OlaPOST the same trouble", "did not help at all.OlaPOST"}, nil}, // goquery joins texts without spaces
		{"the main region of a page without its comments", "",
			`<main>` + sections(4) + `<ol class="commentlist"><li class="comment">COMMENT-A first!</li><li class="comment">COMMENT-B me too</li></ol></main>`,
			"", []string{"SECTION-A", "SECTION-D"}, []string{"COMMENT-A", "COMMENT-B"}},
		{"an article keeps its pick", `<meta property="og:type" content="article">`,
			`<main>` + sections(4) + `</main>`, "", nil, nil},
		{"a product keeps its pick", `<script type="application/ld+json">{"@type": "Product"}</script>`,
			`<main>` + sections(4) + `</main>`, "", nil, nil},
		{"a main region not twice the pick is no wider", "", `<main>` + sections(1) + `</main>`, "", nil, nil},
		{"the body of a page without a main region or a run of items", "",
			`<header>Site</header><div class="content">` + sections(4) + `</div><footer>Legal</footer>`,
			"", []string{"SECTION-A", "SECTION-D"}, []string{"Site", "Legal"}},
		{"the body of a page without its comments", "",
			`<div class="content">` + sections(4) + `</div><div id="comments"><ul><li class="comment">COMMENT-A first!</li><li class="comment">COMMENT-B me too</li></ul></div>`,
			"", []string{"SECTION-A", "SECTION-D"}, []string{"COMMENT-A", "COMMENT-B"}},
		{"a body mostly of links is no content", "",
			`<div class="content">` + sections(1) + `<div class="more">` + strings.Repeat(`<a href="/x">Another service we offer to teams</a> `, 4) + `</div></div>`,
			"", nil, nil},
		{"a discussion keeps its pick rather than its body", `<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>`,
			`<div class="content">` + sections(4) + `</div>`, "", nil, nil},
		{"the grid of a shop without a main region, not its menu", "",
			menu + `<div class="results">` + grid + `</div>`, `<p>Trail boot waterproof leather $170</p>`,
			[]string{"Trail boot", "waterproof leather $170", "Winter boot"}, []string{"Socks"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><head>`+tc.head+`</head><body>`+tc.body+`</body></html>`)
			if tc.picked == "" {
				tc.picked = pickedOne
			}
			picked := parsePage(t, tc.picked)
			got := textOfNode(widerContent(root, pageTypeOf(root), picked))
			if tc.want == nil {
				if got != "" {
					t.Errorf("wider content %q, want none", got)
				}
				return
			}
			checkText(t, got, tc.want, tc.gone)
		})
	}
}

func TestItemRegion(t *testing.T) {
	tests := []struct {
		name, body string
		want       int // items found; 0: none
	}{
		{"cards with a price beside the link", menu + grid, 4},
		{"a menu is nothing but links", menu, 0},
		{"three cards are too few", strings.Replace(grid, `<li class="card"><a href="/p/4">Winter boot</a> insulated to minus thirty $210</li>`, "", 1), 0},
		{"cards in a header are chrome", `<header>` + grid + `</header>`, 0},
		{"comments are no items", strings.ReplaceAll(grid, `class="card"`, `class="comment"`), 0},
		{"nor is a list of comments", `<ol id="comments">` + strings.TrimSuffix(strings.TrimPrefix(grid, `<ul class="grid">`), `</ul>`) + `</ol>`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := itemRegion(parsePage(t, `<html><body>`+tc.body+`</body></html>`), false)
			got := 0
			if g != nil {
				got = len(g.items)
			}
			if got != tc.want {
				t.Errorf("%d items, want %d", got, tc.want)
			}
		})
	}
}

// TestItemRegionTiesGoToFirstRun: of two runs of equal words under one
// parent, the first on the page is the region, every time (the runs were
// once taken from a map, in no fixed order).
func TestItemRegionTiesGoToFirstRun(t *testing.T) {
	run := func(class string) string {
		return strings.Repeat(`<li class="`+class+`"><a href="/p">Boot</a> waterproof leather $170</li>`, 4)
	}
	root := parsePage(t, `<html><body><ul>`+run("first")+run("second")+`</ul></body></html>`)
	for range 20 {
		g := itemRegion(root, false)
		if g == nil || attr(g.items[0], "class") != "first" {
			t.Fatalf("region %v, want the run of class first", g)
		}
	}
}

// TestColumnsAround: a run of a few unclassed blocks, one of which holds
// most of the words and go-trafilatura's pick, is the page's columns
// (WebMD's article beside its menus), not items to widen to.
func TestColumnsAround(t *testing.T) {
	article := strings.Repeat(`<p>ARTICLE babies who eat peanuts early may avoid the allergy, a study of six hundred children finds.</p>`, 6)
	side := `<div><a href="/">Health</a> Center</div><div><h1>Peanuts early</h1>` + article +
		`</div><div><a href="/a">Pets and allergies</a> and more tips</div><div><a href="/b">Allergy myths</a> and facts to know</div>`
	picked := `<p>ARTICLE babies who eat peanuts early may avoid the allergy, a study of six hundred children finds.</p><p>ARTICLE babies who eat peanuts early</p>`
	tests := []struct {
		name, body, picked string
		want               bool
	}{
		{"the pick in the long column", `<div>` + side + `</div>`, picked, true},
		{"a pick elsewhere", `<div>` + side + `</div>`, `<p>Something else the page says in a paragraph of its own, far from here.</p>`, false},
		{"classed items are cards, not columns", `<div>` + strings.ReplaceAll(side, `<div>`, `<div class="card">`) + `</div>`, picked, false},
		{"many items are no columns", `<div>` + side + strings.Repeat(`<div><a href="/c">More on allergies</a> to read</div>`, 2) + `</div>`, picked, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := itemRegion(parsePage(t, `<html><body>`+tc.body+`</body></html>`), false)
			if g == nil {
				t.Fatal("no run of items")
			}
			if got := g.columnsAround(parsePage(t, tc.picked)); got != tc.want {
				t.Errorf("columnsAround = %v, want %v", got, tc.want)
			}
		})
	}
}
