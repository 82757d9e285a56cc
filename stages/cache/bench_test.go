package cache

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/stages"
)

// BenchmarkRestore: what a hit costs to restore an 80 KB page with its
// clean content, against decoding the same Doc as JSON with the body in
// base64 (the format before).
func BenchmarkRestore(b *testing.B) {
	doc := &stages.Doc{
		Response: &stages.Response{FinalURL: "http://a.example/", Status: 200, ContentType: "text/html",
			Header: http.Header{"Content-Type": {"text/html"}, "Cache-Control": {"max-age=600"}},
			Body:   bytes.Repeat([]byte("<p>The ditch riders opened the headgates at dawn.</p>\n"), 1500)},
		Extraction: &stages.Extraction{Content: strings.Repeat("The ditch riders opened the headgates at dawn. ", 250), Title: "Water"},
	}
	b.Run("binary", func(b *testing.B) {
		data, _ := snapshot(doc, time.Now())
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var d stages.Doc
			if _, err := restore(&d, data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-base64", func(b *testing.B) {
		type old struct {
			Response   *stages.Response
			Extraction *stages.Extraction
		}
		data, _ := json.Marshal(old{doc.Response, doc.Extraction})
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var d old
			if err := json.Unmarshal(data, &d); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSnapshotPages: storing and restoring real pages (the
// scrapinghub pages tokens/testdata keeps), with the body S2-compressed
// as stored and raw as in the layout before; it reports the stored bytes
// a page, the page's own, and the time of each.
func BenchmarkSnapshotPages(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "tokens", "testdata", "*.html.gz"))
	if len(files) == 0 {
		b.Fatal("no pages under tokens/testdata")
	}
	var docs []*stages.Doc
	var pageBytes int
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			b.Fatal(err)
		}
		page, err := io.ReadAll(zr)
		if err != nil {
			b.Fatal(err)
		}
		pageBytes += len(page)
		docs = append(docs, &stages.Doc{Response: &stages.Response{Status: 200, ContentType: "text/html", Body: page},
			Extraction: &stages.Extraction{Content: strings.Repeat("Clean text of the page. ", 400)}})
	}
	layouts := map[string]func(*testing.B, *stages.Doc) []byte{
		"s2":  func(b *testing.B, d *stages.Doc) []byte { data, _ := snapshot(d, time.Now()); return data },
		"raw": func(b *testing.B, d *stages.Doc) []byte { return snapshotV2(b, d) },
	}
	for name, layout := range layouts {
		b.Run("store-"+name, func(b *testing.B) {
			stored := 0
			for b.Loop() {
				stored = 0
				for _, d := range docs {
					stored += len(layout(b, d))
				}
			}
			b.ReportMetric(float64(stored)/float64(len(docs)), "stored_B/page")
			b.ReportMetric(float64(pageBytes)/float64(len(docs)), "page_B")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(docs)), "µs/page")
		})
		b.Run("restore-"+name, func(b *testing.B) {
			var data [][]byte
			for _, d := range docs {
				data = append(data, layout(b, d))
			}
			for b.Loop() {
				for _, snap := range data {
					var d stages.Doc
					if _, err := restore(&d, snap); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(docs)), "µs/page")
		})
	}
}
