package office

import (
	"testing"

	"github.com/siftd/sift/plugins/zipdoc"
)

// A chart is written as its title and its series' names: a DrawingML
// chart part (DOCX, PPTX, XLSX) and an ODF chart object alike; an axis
// title is no chart title.
func TestChartText(t *testing.T) {
	body := repack(t, "lo/deck.odp", map[string]any{
		"ppt/charts/chart1.xml": `<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">
<c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Seepage by canal</a:t></a:r></a:p></c:rich></c:tx></c:title>
<c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>2023</c:v></c:pt></c:strCache></c:strRef></c:tx></c:ser>
<c:ser><c:tx><c:v>2024</c:v></c:tx></c:ser></c:barChart>
<c:valAx><c:title><c:tx><c:rich><a:p><a:r><a:t>Acre-feet</a:t></a:r></a:p></c:rich></c:tx></c:title></c:valAx></c:plotArea></c:chart></c:chartSpace>`,
		"Object 9/content.xml": `<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">
<office:body><office:chart><chart:chart><chart:title><text:p>Flow by month</text:p></chart:title></chart:chart></office:chart></office:body></office:document-content>`,
	})
	a, err := zipdoc.Open(body, zipdoc.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	r := &reader{zip: a}
	if got, want := chartText(r, "ppt/charts/chart1.xml"), "Chart: Seepage by canal (series: 2023, 2024)"; got != want {
		t.Errorf("chartText = %q, want %q", got, want)
	}
	if got, want := odfChart(r, "./Object 9"), "Chart: Flow by month"; got != want {
		t.Errorf("odfChart = %q, want %q", got, want)
	}
	for _, href := range []string{"./Object 404", "https://example.com/chart", "../../etc"} {
		if got := odfChart(r, href); got != "" {
			t.Errorf("odfChart(%q) = %q, want nothing", href, got)
		}
	}
}
