package cache

import (
	"bytes"
	"encoding/json"
	"net/http"
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
