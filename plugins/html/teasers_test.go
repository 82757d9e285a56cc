package html

import (
	"strings"
	"testing"
)

func TestDropTeaserLists(t *testing.T) {
	story := `<p>STORY The council voted on Tuesday to keep the river path open through the winter, after a season in which more people walked it than ever before. Volunteers will clear the fallen branches each week.</p>`
	teaser := func(mark string) string {
		return `<li><h3><a href="/` + mark + `">` + mark + ` headline</a></h3><p>` + mark + ` standfirst of another story.</p></li>`
	}
	bare := func(mark string) string { return `<li><h3><a href="/` + mark + `">` + mark + `</a></h3></li>` }
	related := `<h2>RELATED</h2><ul>` + teaser("TEASER-A") + teaser("TEASER-B") + teaser("TEASER-C") + `</ul>`
	tests := []struct {
		name, body string
		kept, gone []string
	}{
		{"a list of teasers goes with its heading", story + related,
			[]string{"STORY"}, []string{"RELATED", "TEASER-A", "TEASER-C"}},
		{"two teasers are not a list of them", story + `<ul>` + teaser("TEASER-A") + teaser("TEASER-B") + `</ul>`,
			[]string{"STORY", "TEASER-A", "TEASER-B"}, nil},
		{"linked headings alone may be the article's index", story + `<ul>` + bare("INDEX-A") + bare("INDEX-B") + bare("INDEX-C") + `</ul>`,
			[]string{"STORY", "INDEX-A", "INDEX-C"}, nil},
		{"a list with another kind of item stays", story + `<ul>` + teaser("TEASER-A") + teaser("TEASER-B") + teaser("TEASER-C") + `<li>PLAIN item</li></ul>`,
			[]string{"TEASER-A", "PLAIN"}, nil},
		{"a page made of teaser lists keeps them", `<p>INTRO Our picks.</p>` + related + `<ul>` + teaser("MORE-A") + teaser("MORE-B") + teaser("MORE-C") + `</ul>`,
			[]string{"INTRO", "TEASER-A", "MORE-C"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><body><article>`+tc.body+`</article></body></html>`)
			markLinks(root, true)
			dropTeaserLists(root)
			checkText(t, textOfNode(root), tc.kept, tc.gone)
		})
	}
}

// Through the whole extractor, a declared article loses the teasers that
// follow it.
func TestArticleLosesTeasers(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<html><head><meta property="og:type" content="article"><title>River path</title></head><body><article><h1>River path stays open</h1>`)
	for i := 0; i < 6; i++ {
		b.WriteString(`<p>STORY The council voted on Tuesday to keep the river path open through the winter, after a season in which more people walked it than ever before.</p>`)
	}
	b.WriteString(`<h2>More from the valley</h2><ul>`)
	for _, m := range []string{"TEASER-A", "TEASER-B", "TEASER-C"} {
		b.WriteString(`<li><h3><a href="/` + m + `">` + m + ` a headline for another story</a></h3><p>A standfirst for another story about the valley and its people.</p></li>`)
	}
	b.WriteString(`</ul></article></body></html>`)
	res, err := extractHTML(t, []byte(b.String()), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"STORY"}, []string{"TEASER-A", "TEASER-C", "More from the valley"})
}
