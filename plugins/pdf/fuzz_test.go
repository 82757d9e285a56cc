package pdf

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/siftd/sift/plugins/sdk"
)

// FuzzExtract feeds the extractor hostile bytes, seeded with real
// malformed, truncated, broken-xref and hostile files (testdata/hostile).
// Every input ends as text under page markers or as a document error:
// never a plugin failure, never invalid UTF-8.
func FuzzExtract(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join(corpus, "hostile", "*.pdf"))
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no seeds in testdata/hostile: %v", err)
	}
	for _, file := range seeds {
		body, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body, "")
	}
	f.Add([]byte("%PDF-1.4\n%%EOF"), "1-2")
	e := New().(*Extractor)
	f.Fuzz(func(t *testing.T, body []byte, pages string) {
		res, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, Options: map[string]string{"pages": pages}})
		if err != nil {
			var de *sdk.DocError
			if !errors.As(err, &de) {
				t.Fatalf("a plugin failure, not a document error: %v", err)
			}
			return
		}
		if !utf8.ValidString(res.Content) || !strings.HasPrefix(res.Content, "<!-- page ") {
			t.Fatalf("content %.100q", res.Content)
		}
	})
}
