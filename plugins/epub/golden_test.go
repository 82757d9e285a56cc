package epub

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

var update = flag.Bool("update", false, "rewrite the golden markdown under testdata/")

func extractFile(t testing.TB, file string) (*sdk.ExtractResult, error) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return New().Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: mediaType, URL: "https://books.example.com/" + file})
}

func golden(res *sdk.ExtractResult) string {
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
			got := golden(res)
			path := filepath.Join("testdata", "golden", file+".md")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", file, path, got)
			}
		})
	}
}
