package epub

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/golden"
	"github.com/siftd/sift/plugins/sdk"
)

func extractFile(t testing.TB, file string) (*sdk.ExtractResult, error) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return New().Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: mediaType, URL: "https://books.example.com/" + file})
}

func markdownOf(res *sdk.ExtractResult) string {
	var b strings.Builder
	b.WriteString("title: " + res.Title + "\n")
	keys := make([]string, 0, len(res.Metadata))
	for k := range res.Metadata {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString("meta " + k + ": " + res.Metadata[k] + "\n")
	}
	for _, w := range res.Warnings {
		b.WriteString("warning: " + w + "\n")
	}
	for _, l := range res.Links {
		b.WriteString("link: " + l + "\n")
	}
	b.WriteString("---\n" + res.Content)
	return b.String()
}

// The books pandoc made (testdata/generate.sh), EPUB 3 and EPUB 2, read to
// their golden markdown.
func TestGolden(t *testing.T) {
	for _, file := range []string{"book.epub", "book2.epub"} {
		t.Run(file, func(t *testing.T) {
			res, err := extractFile(t, file)
			if err != nil {
				t.Fatal(err)
			}
			got := markdownOf(res)
			path := filepath.Join("testdata", "golden", file+".md")
			golden.Check(t, path, got)
		})
	}
}
