package html

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/net/html"

	"github.com/siftd/sift/plugins/sdk"
)

// benchPages loads the scrapinghub benchmark pages that sit beside the
// repository (../shared/bench/extract).
func benchPages(b *testing.B) [][]byte {
	b.Helper()
	files, _ := filepath.Glob("../../../shared/bench/extract/data/scrapinghub/html/*.html.gz")
	if len(files) == 0 {
		b.Skip("benchmark pages not found at ../shared/bench/extract")
	}
	var pages [][]byte
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			b.Fatal(err)
		}
		page, err := io.ReadAll(zr)
		fh.Close()
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, page)
	}
	return pages
}

// BenchmarkExtractPage reports the warm in-process time per page.
func BenchmarkExtractPage(b *testing.B) {
	pages := benchPages(b)
	ex := New()
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		page := pages[i%len(pages)]
		if _, err := ex.Extract(ctx, &sdk.ExtractRequest{Body: page, ContentType: "text/html", URL: "https://example.com/"}); err != nil {
			var de *sdk.DocError
			if !asDocError(err, &de) {
				b.Fatal(err)
			}
		}
	}
}

func asDocError(err error, target **sdk.DocError) bool {
	de, ok := err.(*sdk.DocError)
	*target = de
	return ok
}

// BenchmarkPageHiddenClasses reports the time per page spent reading the
// page's own stylesheets for the classes they hide (stylesheet.go), to set
// beside BenchmarkExtractPage.
func BenchmarkPageHiddenClasses(b *testing.B) {
	pages := benchPages(b)
	roots := make([]*html.Node, len(pages))
	for i, page := range pages {
		root, err := parse(page, "text/html")
		if err != nil {
			b.Fatal(err)
		}
		roots[i] = root
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		pageHiddenClasses(roots[i%len(roots)])
	}
}
