package html

import (
	"strings"
	"testing"
)

// TestBaseHref: every relative URL of the markdown and the HTML resolves
// against the document's base, the first <base href> resolved against the
// page's URL, as a browser (and the links and images formats) resolve
// them; a base that leads nowhere fetchable is passed over.
func TestBaseHref(t *testing.T) {
	const page = "https://garden.example/guides/pruning.html"
	body := `<p>Apple trees are pruned in late winter, while they are dormant, so that the cuts heal before the sap rises in spring; see the <a href="doc.html">rel link</a> and the <a href="/root.html">root link</a>.</p>` +
		`<p><img src="pic.jpg" alt="A cut above a bud"></p>` +
		`<p>Take out the dead and crossing branches first, then thin the crown so that light reaches every part of the tree.</p>` +
		`<p>A tree pruned this way every winter fruits on wood of every age, and stays low enough to pick without a ladder.</p>`
	for _, tc := range []struct {
		name, head string
		opts       map[string]string
		want, gone []string
	}{
		{"absolute base", `<base href="http://h/assets/">`, nil,
			[]string{"[rel link](http://h/assets/doc.html)", "[root link](http://h/root.html)", "![A cut above a bud](http://h/assets/pic.jpg)",
				`<a href="http://h/assets/doc.html">`, `<img src="http://h/assets/pic.jpg"`},
			[]string{"garden.example"}},
		{"relative base, resolved against the page", `<base href="/assets/">`, nil,
			[]string{"[rel link](https://garden.example/assets/doc.html)", "![A cut above a bud](https://garden.example/assets/pic.jpg)"},
			[]string{"guides/doc.html", "guides/pic.jpg"}},
		{"the first base with an href counts", `<base target="_blank"><base href="http://h/a/"><base href="http://h/b/">`, nil,
			[]string{"[rel link](http://h/a/doc.html)"}, []string{"http://h/b/", "garden.example"}},
		{"a javascript: base is passed over", `<base href="javascript:void(0)/">`, nil,
			[]string{"[rel link](https://garden.example/guides/doc.html)"}, []string{"javascript"}},
		{"no base: the page's URL", ``, nil,
			[]string{"[rel link](https://garden.example/guides/doc.html)", "![A cut above a bud](https://garden.example/guides/pic.jpg)"}, nil},
		{"the whole page", `<base href="http://h/assets/">`, map[string]string{OptionMainContent: "false"},
			[]string{"[rel link](http://h/assets/doc.html)", "![A cut above a bud](http://h/assets/pic.jpg)", `<a href="http://h/assets/doc.html">`},
			[]string{"garden.example"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := map[string]string{OptionImages: "true", "html": "true"}
			for k, v := range tc.opts {
				opts[k] = v
			}
			doc := `<html><head><title>Pruning</title>` + tc.head + `</head><body><article><h1>Pruning apple trees</h1>` + body + `</article></body></html>`
			res, err := extractHTML(t, []byte(doc), page, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content+"\n"+res.HTML, tc.want, tc.gone)
			if strings.Contains(res.Content, "](doc.html)") {
				t.Errorf("a relative link is left:\n%s", res.Content)
			}
		})
	}
}
