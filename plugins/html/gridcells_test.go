package html

import (
	"strings"
	"testing"
)

// TestMultiLineCellsStayInTheirRow: a cell of several lines (a <br>,
// paragraphs, a list) keeps the table a markdown table, its line breaks
// written <br />, a list as its items; before, the whole table came out
// as loose text. A table that lays a page out (long cells) stays loose.
func TestMultiLineCellsStayInTheirRow(t *testing.T) {
	para := `<p>Apple trees are pruned in late winter, while they are dormant, so that the cuts heal before the sap rises in spring.</p>`
	long := strings.Repeat("Take out the dead and crossing branches first, then thin the crown. ", 6)
	for _, tc := range []struct {
		name, table string
		opts        map[string]string
		want, gone  []string
	}{
		{"a line break", `<table><tr><th>Tool</th><th>Use</th></tr><tr><td>a</td><td>line<br/>two</td></tr></table>`, nil,
			[]string{"| a ", "| line<br />two "}, nil},
		{"a header-less table", `<table><tr><td>a</td><td>line<br/>two</td></tr><tr><td>b</td><td>three</td></tr></table>`, nil,
			[]string{"| line<br />two ", "| three "}, nil},
		{"paragraphs", `<table><tr><th>Tool</th><th>Use</th></tr><tr><td>saw</td><td><p>Thick wood.</p><p>Dead wood.</p></td></tr></table>`, nil,
			[]string{"| Thick wood.<br />Dead wood. "}, []string{"<br /><br />"}},
		{"a list", `<table><tr><th>Tool</th><th>Use</th></tr><tr><td>shears</td><td><ul><li>twigs</li><li>shoots</li></ul></td></tr></table>`, nil,
			[]string{"| • twigs • shoots "}, nil},
		{"an ordered list", `<table><tr><th>Tool</th><th>Steps</th></tr><tr><td>saw</td><td><ol><li>undercut</li><li>top cut</li></ol></td></tr></table>`, nil,
			[]string{"| • undercut • top cut "}, nil},
		{"the whole page", `<table><tr><th>Tool</th><th>Use</th></tr><tr><td>shears</td><td>twigs<br>shoots</td></tr><tr><td>saw</td><td><ul><li>limbs</li><li>stumps</li></ul></td></tr></table>`,
			map[string]string{OptionMainContent: "false"},
			[]string{"| twigs<br />shoots ", "| • limbs • stumps "}, nil},
		{"a line break at a cell's edge goes", `<table><tr><th>Trail</th><th>Miles</th></tr><tr><td>Anthills<br/></td><td><br/>4.7</td></tr></table>`, nil,
			[]string{"| Anthills ", "| 4.7 "}, []string{"<br />"}},
		{"a table of one column stays loose", `<table><tr><td>Tip of the day<br/>Prune in winter</td></tr><tr><td>Tree of the day<br/>Apple</td></tr></table>`, nil,
			[]string{"Tip of the day", "Apple"}, []string{"<br />", "| "}},
		{"a layout table's long cells stay loose", `<table><tr><td>` + long + `<br/>` + long + `</td><td>Side<br/>bar</td></tr></table>`, nil,
			[]string{"Side"}, []string{"<br />", "| "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := `<html><head><title>Tools</title></head><body><article><h1>Pruning tools</h1>` + para + tc.table + para + para + `</article></body></html>`
			opts := map[string]string{"html": "true"}
			for k, v := range tc.opts {
				opts[k] = v
			}
			res, err := extractHTML(t, []byte(page), pageURL, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkText(t, res.Content, tc.want, tc.gone)
			if tc.opts[OptionMainContent] == "false" && !strings.Contains(res.HTML, "<li>limbs</li>") {
				t.Errorf("the whole page's HTML lost its cell's list:\n%s", res.HTML)
			}
		})
	}
}
