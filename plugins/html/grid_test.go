package html

import (
	"golang.org/x/net/html"

	"strings"
	"testing"
)

// tablePage puts a table in an article long enough to be read as the
// page's content.
func tablePage(table string) string {
	return `<html><head><title>Results</title></head><body><article><h1>Trial results</h1>` +
		`<p>The trial compared three varieties over two seasons, and the table below gives the yield of each plot in kilograms.</p>` +
		table +
		`<p>The second season was wetter than the first, which explains most of the difference between the two columns of figures.</p>` +
		`</article></body></html>`
}

// tableRows are the markdown table's rows of md, cells trimmed, without
// the delimiter row.
func tableRows(md string) [][]string {
	var rows [][]string
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") || strings.Trim(line, "|-: ") == "" {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	return rows
}

// TestTableSpans: a cell spanning columns or rows covers them, and every
// other cell stays in its column.
func TestTableSpans(t *testing.T) {
	for _, tc := range []struct {
		name, table string
		want        [][]string
	}{
		{"colspan in the header",
			`<table><thead><tr><th rowspan="2">Variety</th><th colspan="2">Yield</th></tr><tr><th>2023</th><th>2024</th></tr></thead>` +
				`<tbody><tr><td>Bramley</td><td>11</td><td>13</td></tr><tr><td>Cox</td><td>9</td><td>10</td></tr></tbody></table>`,
			[][]string{{"Variety", "Yield", ""}, {"", "2023", "2024"}, {"Bramley", "11", "13"}, {"Cox", "9", "10"}}},
		{"rowspan in the body",
			`<table><tr><th>Site</th><th>Variety</th><th>Yield</th></tr>` +
				`<tr><td rowspan="2">North</td><td>Bramley</td><td>11</td></tr><tr><td>Cox</td><td>9</td></tr>` +
				`<tr><td>South</td><td>Cox</td><td>12</td></tr></table>`,
			[][]string{{"Site", "Variety", "Yield"}, {"North", "Bramley", "11"}, {"", "Cox", "9"}, {"South", "Cox", "12"}}},
		{"rowspan=0 to the end, and an oversized span cut at the table",
			`<table><tr><th>Site</th><th>Variety</th></tr><tr><td rowspan="0">North</td><td>Bramley</td></tr><tr><td>Cox</td></tr>` +
				`<tr><td rowspan="99">Spartan</td><td>x</td></tr></table>`,
			[][]string{{"Site", "Variety", ""}, {"North", "Bramley", ""}, {"", "Cox", ""}, {"", "Spartan", "x"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(tablePage(tc.table)), pageURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := tableRows(res.Content)
			if len(got) != len(tc.want) {
				t.Fatalf("rows %q, want %q:\n%s", got, tc.want, res.Content)
			}
			for i := range got {
				if strings.Join(got[i], "|") != strings.Join(tc.want[i], "|") {
					t.Errorf("row %d: %q, want %q", i, got[i], tc.want[i])
				}
			}
			if strings.ContainsRune(res.Content, cellFill) {
				t.Errorf("a cell fill is left in:\n%q", res.Content)
			}
		})
	}
}

// TestTableSpansBounded: a hostile page's spans add a bounded number of
// cells.
func TestTableSpansBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<table>`)
	for i := 0; i < 200; i++ {
		b.WriteString(`<tr><td colspan="1000" rowspan="65534">x</td></tr>`)
	}
	b.WriteString(`</table>`)
	root := parsePage(t, tablePage(b.String()))
	layOutTables(root)
	cells := 0
	walkElements(root, func(c *html.Node) bool {
		if c.Data == "td" {
			cells++
		}
		return true
	})
	if cells > maxSpanCells+200 {
		t.Errorf("%d cells, want at most %d", cells, maxSpanCells+200)
	}
}

// TestNestedAndLayoutTables: a small table in a data table's cell is
// written into the cell as text, and a table of one cell gives way to
// its content.
func TestNestedAndLayoutTables(t *testing.T) {
	nested := `<table><tr><th>Variety</th><th>Details</th></tr><tr><td>Bramley</td><td>` +
		`<table><tr><td>Weight</td><td>200 g</td></tr><tr><td>Colour</td><td>green</td></tr></table></td></tr></table>`
	res, err := extractHTML(t, []byte(tablePage(nested)), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"| Bramley | Weight: 200 g; Colour: green |"}, nil)

	layout := `<table><tr><td><p>Every plot was picked by hand on the same day, and the fruit weighed before it was sorted.</p></td></tr></table>`
	res, err = extractHTML(t, []byte(tablePage(layout)), pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"\n\nEvery plot was picked by hand on the same day"}, []string{"| Every plot"})
}
