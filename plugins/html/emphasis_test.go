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
		{`<b>Clay</b><b><br></b>Fine`, `<b>Clay</b><br/>Fine`}, // a line break set in bold
		{`<em> <br> </em>`, ` <br/> `},
		{`<b>Clay<br></b>`, `<b>Clay<br/></b>`}, // words beside it: kept
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

// A list item's term and definition, parted by a line break set in bold,
// do not run together, in the main content or on the whole page.
func TestBoldLineBreakParts(t *testing.T) {
	para := "<p>" + strings.Repeat("Words of a paragraph that is long enough to count as text. ", 4) + "</p>"
	page := `<html><body><article><h1>Apps</h1>` + para + `<ul><li><b>Internal Apps</b><b><br></b><span>Built for a company.</span></li>` +
		`<li><b>Partner Apps</b><b><br></b><span>Built for partners.</span></li></ul>` +
		`<p>Both kinds are reviewed <b><br></b>before release.</p>` + para + `</article></body></html>`
	for _, opts := range []map[string]string{nil, {OptionMainContent: "false"}} {
		res, err := extractHTML(t, []byte(page), "https://apps.example/kinds", opts)
		if err != nil {
			t.Fatal(err)
		}
		checkText(t, res.Content, []string{"**Internal Apps**  \n  Built for a company.", "reviewed  \nbefore release"},
			[]string{"**Internal Apps**Built", "reviewed\nbefore"})
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
