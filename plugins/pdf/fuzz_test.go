package pdf

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/siftd/sift/plugins/sdk"
)

// FuzzExtract feeds the extractor hostile bytes, seeded with the corpus's
// malformed, truncated, broken-xref and hostile files. Every input ends as
// text under page markers or as a document error: never a plugin failure,
// never invalid UTF-8.
func FuzzExtract(f *testing.F) {
	for _, file := range hostileSeeds(f) {
		body, err := os.ReadFile(filepath.Join(corpus, "..", file))
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

// hostileSeeds lists the corpus files a parser must survive.
func hostileSeeds(f *testing.F) []string {
	raw, err := os.ReadFile(filepath.Join(corpus, "..", "manifest.json"))
	if err != nil {
		f.Fatalf("the PDF corpus is required: %v", err)
	}
	var entries []struct{ File, Category string }
	if err := json.Unmarshal(raw, &entries); err != nil {
		f.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		switch e.Category {
		case "malformed", "truncated", "broken-xref", "hostile":
			out = append(out, e.File)
		}
	}
	return out
}
