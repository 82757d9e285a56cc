package firecrawl

import (
	"reflect"
	"testing"

	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/stages"
)

// TestLinksOfADocument: the links format of a document that is not HTML
// lists its extractor's links; it was always [].
func TestLinksOfADocument(t *testing.T) {
	t.Parallel()
	links := []string{"https://example.org/a", "https://example.org/b"}
	doc := &stages.Doc{
		Request:    stages.Request{URL: "https://example.org/report.pdf"},
		Response:   &stages.Response{FinalURL: "https://example.org/report.pdf", Status: 200, ContentType: "application/pdf", Body: []byte("%PDF-1.7")},
		Extraction: &stages.Extraction{Content: "Report", Links: links},
	}
	out := scrapeAnswer(&scrapeRequest{URL: doc.Request.URL, scrapeOptions: scrapeOptions{Formats: []scrapeFormat{"links"}}},
		&service.Result{Doc: doc})
	if out.Links == nil || !reflect.DeepEqual(*out.Links, links) {
		t.Fatalf("links %v, want %v", out.Links, links)
	}
	(*out.Links)[0] = "changed"
	if doc.Extraction.Links[0] != "https://example.org/a" {
		t.Fatal("the answer shares the Doc's links")
	}
}
