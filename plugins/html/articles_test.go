package html

import (
	"strings"
	"testing"
)

func TestDropOtherArticles(t *testing.T) {
	text := strings.Repeat("The orchard was planted in rows that follow the slope, so rain runs along them. ", 8)
	marked := func(mark string) string {
		return `<article itemscope itemtype="http://schema.org/BlogPosting"><h1>` + mark + `</h1><p>` + text + `</p>` +
			`<article class="quote">QUOTED inside the post</article></article>`
	}
	other := func(mark string) string {
		return `<article><h2>` + mark + ` another post</h2><p>` + text + `</p></article>`
	}
	tests := []struct {
		name, body string
		kept, gone []string
	}{
		{"other articles go", marked("MAIN") + `<div>` + other("OTHER-A") + other("OTHER-B") + `</div>`,
			[]string{"MAIN", "QUOTED"}, []string{"OTHER-A", "OTHER-B"}},
		{"an article holding the marked one stays", `<article class="page">PAGE ` + marked("MAIN") + `</article>`,
			[]string{"PAGE", "MAIN"}, nil},
		{"two marked articles say nothing", marked("MAIN-A") + marked("MAIN-B") + other("OTHER"),
			[]string{"MAIN-A", "MAIN-B", "OTHER"}, nil},
		{"a mark around a headline says nothing", `<header itemscope itemtype="https://schema.org/NewsArticle"><h1>HEADLINE</h1></header>` + other("BODY"),
			[]string{"HEADLINE", "BODY"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><body>`+tc.body+`</body></html>`)
			dropOtherArticles(root, pageTypeOf(root).markedArticle)
			checkText(t, textOfNode(root), tc.kept, tc.gone)
		})
	}
}

// Through the whole extractor: the microdata declares the article, and the
// other posts around it leave.
func TestMarkedArticleAlone(t *testing.T) {
	text := strings.Repeat("The orchard was planted in rows that follow the slope, so rain runs along them. ", 8)
	page := `<html><head><title>Orchard</title></head><body><article itemscope itemtype="http://schema.org/BlogPosting"><h1>Orchard</h1><p>MAIN ` + text + `</p></article><section>`
	for _, m := range []string{"OTHER-A", "OTHER-B", "OTHER-C"} {
		page += `<article><h2>` + m + `</h2><p>` + m + ` ` + text + `</p></article>`
	}
	res, err := extractHTML(t, []byte(page+`</section></body></html>`), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"MAIN"}, []string{"OTHER-A", "OTHER-C"})
}
