package html

import "testing"

func TestDropLandmarks(t *testing.T) {
	story := `<p>STORY The council voted on Tuesday to keep the river path open through the winter, after a season in which more people walked it than ever before.</p>`
	tests := []struct {
		name, body string
		kept, gone []string
	}{
		{"the page's banner, navigation and footer",
			`<header><p>BANNER Shop</p></header><nav><a href="/a">MENU Sale</a></nav><div>` + story + `</div><footer><p>FOOTER Careers</p></footer>`,
			[]string{"STORY"}, []string{"BANNER", "MENU", "FOOTER"}},
		{"an aside beside the page's main region",
			`<main>` + story + `<aside><p>ASIDE Most read</p></aside></main>`,
			[]string{"STORY"}, []string{"ASIDE"}},
		{"roles on other elements, in any case",
			`<div role=" Banner "><p>BANNER Shop</p></div><div role="navigation"><p>MENU Sale</p></div>` + story + `<div role="contentinfo"><p>FOOTER Careers</p></div><div role="complementary"><p>ASIDE Most read</p></div>`,
			[]string{"STORY"}, []string{"BANNER", "MENU", "FOOTER", "ASIDE"}},
		{"an article's own header and footer stay",
			`<article><header><h1>HEADLINE River path</h1></header>` + story + `<footer><p>BYLINE By Ana Ruiz</p></footer></article>`,
			[]string{"STORY", "HEADLINE", "BYLINE"}, nil},
		{"a section's header and a main region's footer stay",
			`<main><section><header><h2>HEADING Winter</h2></header>` + story + `</section><footer><p>UPDATED Updated in May</p></footer></main>`,
			[]string{"STORY", "HEADING", "UPDATED"}, nil},
		{"a header inside role=main stays",
			`<div role="main"><header><h1>HEADLINE River path</h1></header>` + story + `</div>`,
			[]string{"STORY", "HEADLINE"}, nil},
		{"an aside inside an article stays",
			`<article>` + story + `<aside><p>PULLQUOTE More people walked it than ever.</p></aside></article>`,
			[]string{"STORY", "PULLQUOTE"}, nil},
		{"navigation inside the main region goes",
			`<main><nav><a href="/a">CONTENTS Part one</a></nav>` + story + `</main>`,
			[]string{"STORY"}, []string{"CONTENTS"}},
		{"a shell whose words are all in its landmarks keeps them",
			`<div id="root"></div><nav><p>MENU Sale</p></nav><footer><p>FOOTER Careers</p></footer>`,
			[]string{"MENU", "FOOTER"}, nil},
		{"an aside left open around the whole page keeps it",
			`<aside class="announcement"><p>NOTICE Free shipping.</p><main>` + story + `</main>`,
			[]string{"NOTICE", "STORY"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><head><title>River path</title></head><body>`+tc.body+`</body></html>`)
			dropLandmarks(root)
			checkText(t, textOfNode(root), tc.kept, tc.gone)
		})
	}
}
