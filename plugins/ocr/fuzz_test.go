package ocr

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// FuzzImageHeader: any body, read as far as an engine-less extractor
// reads it (the header's dimensions, the EXIF block), gives a result or a
// document error, never a panic; nothing is decoded past the header.
func FuzzImageHeader(f *testing.F) {
	png := readTestdataF(f, "title.png")
	f.Add(png[:200])
	f.Add(readTestdataF(f, "title.webp")[:200])
	f.Add(pngHeader(50_000, 50_000))
	f.Add(withEXIF([]byte{0xff, 0xd8, 0xff, 0xd9}, "a description", "a title"))
	f.Add([]byte("II*\x00\x08\x00\x00\x00\x01\x00\x0e\x01\x02\x00\xff\xff\x00\x00\x08\x00\x00\x00"))
	f.Add([]byte("GIF89a\xff\xff\xff\xff\x00\x00\x00"))
	e := NewExtractor().(*Extractor)
	f.Fuzz(func(t *testing.T, body []byte) {
		_, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "image/png"})
		var de *sdk.DocError
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("not a document error: %v", err)
		}
		for _, format := range []string{"jpeg", "png", "webp", "tiff"} {
			exifFields(exifBlock(format, body))
		}
	})
}

func readTestdataF(f *testing.F, name string) []byte {
	f.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.Fatal(err)
	}
	return b
}
