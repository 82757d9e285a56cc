package office

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/golden"
	"github.com/siftd/sift/plugins/sdk"
)

// goldens are the documents made by real converters (testdata/generate.sh)
// and the media type each is served as.
var goldens = []struct {
	file, mediaType string
}{
	{"report.docx", typeDOCX},
	{"report.odt", typeODT},
	{"lo/report.docx", typeDOCX},
	{"lo/report.odt", typeODT},
	{"thumbnail.docx", typeDOCX},
	{"deck.pptx", typePPTX},
	{"lo/deck.odp", typeODP},
	{"lo/book.xlsx", typeXLSX},
	{"lo/book.ods", typeODS},
}

func extractFile(t testing.TB, file, mediaType string) (*sdk.ExtractResult, error) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return New().Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: mediaType, URL: "https://docs.example.com/files/" + filepath.Base(file)})
}

// golden renders what an agent gets of a document: its title, metadata,
// warnings and links, then the markdown.
func markdownOf(res *sdk.ExtractResult) string {
	var b strings.Builder
	b.WriteString("title: " + res.Title + "\n")
	for _, k := range sortedKeys(res.Metadata) {
		if k == "created" || k == "modified" {
			continue // the converter's clock
		}
		b.WriteString("meta " + k + ": " + res.Metadata[k] + "\n")
	}
	for _, w := range res.Warnings {
		b.WriteString("warning: " + w + "\n")
	}
	for _, l := range res.Links {
		b.WriteString("link: " + l + "\n")
	}
	b.WriteString("---\n")
	b.WriteString(res.Content)
	return b.String()
}

func TestGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.file, func(t *testing.T) {
			res, err := extractFile(t, g.file, g.mediaType)
			if err != nil {
				t.Fatal(err)
			}
			got := markdownOf(res)
			path := filepath.Join("testdata", "golden", strings.ReplaceAll(g.file, "/", "-")+".md")
			golden.Check(t, path, got)
		})
	}
}
