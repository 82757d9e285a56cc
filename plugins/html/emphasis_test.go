package html

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestFlattenEmphasis(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<b><strong>Clay</strong></b>`, `<strong>Clay</strong>`},
		{`<strong> <b>Clay</b> </strong>`, `<b>Clay</b>`},
		{`<i><em>Loam</em></i>`, `<em>Loam</em>`},
		{`<b><b><strong>Sand</strong></b></b>`, `<strong>Sand</strong>`},
		{`<b><em>Silt</em></b>`, `<b><em>Silt</em></b>`},                             // bold and italic: both kept
		{`<b>Soil <strong>kinds</strong></b>`, `<b>Soil <strong>kinds</strong></b>`}, // more than the inner one
		{`<b><a href="/c">Clay</a></b>`, `<b><a href="/c">Clay</a></b>`},
	} {
		root := parsePage(t, `<html><body><p>`+tc.in+`</p></body></html>`)
		flattenEmphasis(root)
		var b strings.Builder
		if err := html.Render(&b, root); err != nil {
			t.Fatal(err)
		}
		if want := `<p>` + tc.want + `</p>`; !strings.Contains(b.String(), want) {
			t.Errorf("%s became %s, want %s", tc.in, b.String(), want)
		}
	}
}

// TestNestedEmphasisKeepsItsPlace: a list of terms each in a doubled bold
// keeps each term before its definition, apart from it, and the colon
// between them (go-trafilatura moved the colon to the item's end and ran
// the term into the definition).
func TestNestedEmphasisKeepsItsPlace(t *testing.T) {
	md := extractFile(t, "glossary").Content
	checkText(t, md, []string{"**Clay**](https://garden.example/guides/clay/)**:**", "**Sand**](https://garden.example/guides/sand/)**:**"},
		[]string{"**Clay**Fine", "slowly and warm late in spring.**:**"})
}
