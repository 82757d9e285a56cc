package html

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func TestOpenNoscript(t *testing.T) {
	thread := `<noscript><div class="post"><p>First post: the update broke the grammar checks in every document we reviewed this morning.</p></div>` +
		`<div class="post"><p>Second post: same here, and the replies got much longer too.</p></div></noscript>`
	tests := []struct {
		name, body string
		want       []string // texts of the <p>s after opening
		gone       string   // text that must not remain in the body's text
	}{
		{"a page for readers without scripts is read", `<div id="app"></div>` + thread,
			[]string{"First post: the update broke the grammar checks in every document we reviewed this morning.", "Second post: same here, and the replies got much longer too."}, "<div"},
		{"a copy of a page that stands without it goes",
			`<div class="post"><p>First post: the update broke the grammar checks in every document we reviewed this morning.</p></div>` +
				`<div class="post"><p>Second post: same here, and the replies got much longer too.</p></div>` + strings.ReplaceAll(thread, "post:", "copy:"),
			[]string{"First post: the update broke the grammar checks in every document we reviewed this morning.", "Second post: same here, and the replies got much longer too."}, "copy:"},
		{"a plea to turn scripts on goes", `<p>Body text.</p><noscript>Please enable JavaScript to use this site.</noscript>`,
			[]string{"Body text."}, "enable JavaScript"},
		{"a tracking pixel goes", `<p>Body text.</p><noscript><img src="https://px.example/p.gif"></noscript>`,
			[]string{"Body text."}, "px.example"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, "<html><head><noscript><style>p{}</style></noscript></head><body>"+tc.body+"</body></html>")
			openNoscript(root)
			doc := goquery.NewDocumentFromNode(root)
			var got []string
			doc.Find("body p").Each(func(_ int, s *goquery.Selection) { got = append(got, s.Text()) })
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("paragraphs %q, want %q", got, tc.want)
			}
			if text := doc.Find("body").Text(); strings.Contains(text, tc.gone) || doc.Find("body noscript").Length() > 0 {
				t.Errorf("%q or a <noscript> remains in the body: %q", tc.gone, text)
			}
			if doc.Find("head noscript").Length() != 1 {
				t.Error("the head's <noscript> was touched; only the body's are read")
			}
		})
	}
}

// TestNoscriptPageExtracted: a thread served to readers without scripts is
// extracted as text, not as its markup.
func TestNoscriptPageExtracted(t *testing.T) {
	var posts strings.Builder
	for _, p := range []string{
		"The update that shipped last night broke the grammar checks in every document we reviewed this morning, and the reviews now send us to another tool.",
		"Same here: the answers got much longer and miss details they used to catch, so we moved back to the older model until this is fixed.",
		"We saw it too and filed a report with the exact prompts, the documents and the answers, so the team can reproduce the problem on their side.",
	} {
		posts.WriteString(`<div class="topic-body"><div class="post" itemprop="text"><p>` + p + `</p></div></div>`)
	}
	page := `<html><head><title>Update broken</title></head><body><div id="app"></div><noscript data-path="/t/1">` +
		`<header><a href="/">Community</a></header><div id="main-outlet" role="main"><h1>Update broken</h1>` + posts.String() + `</div></noscript></body></html>`
	res, err := extractHTML(t, []byte(page), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"broke the grammar checks", "moved back to the older model", "filed a report"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("%q missing:\n%s", want, res.Content)
		}
	}
	if strings.Contains(res.Content, "<div") || strings.Contains(res.Content, `\<div`) {
		t.Errorf("markup came out as text:\n%s", res.Content)
	}
}
