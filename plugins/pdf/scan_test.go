package pdf

import (
	"context"
	"errors"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/scanpdf"
	"github.com/siftd/sift/internal/testkit/testenv"
	"github.com/siftd/sift/plugins/sdk"
)

// withOCR is the pdf extractor configured as sift configures it, with
// tesseract; the test stops (testenv.Missing) without it.
func withOCR(t *testing.T) *Extractor {
	t.Helper()
	testenv.NeedCommand(t, "tesseract", "apt-get install tesseract-ocr tesseract-ocr-eng")
	e := New().(*Extractor)
	diags, err := e.Configure(context.Background(), nil)
	if err != nil || diags.HasErrors() || e.ocr == nil {
		t.Fatalf("configure: %v %v", diags, err)
	}
	return e
}

// scanOf renders pages of a test PDF at dpi and wraps them as a scan: a
// PDF of images alone. It returns the scan and the original's text of
// the same pages, the truth OCR is scored against.
func scanOf(t *testing.T, e *Extractor, file, pages string, dpi int) ([]byte, string) {
	t.Helper()
	orig, err := extract(t, e, file, map[string]string{"pages": pages, "ocr": "never"})
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(corpus, file))
	if err != nil {
		t.Fatal(err)
	}
	imgs, err := e.Render(body, dpi)
	if err != nil {
		t.Fatal(err)
	}
	sel, err := parsePages(pages, len(imgs))
	if err != nil {
		t.Fatal(err)
	}
	var keep []*image.Gray
	for _, i := range sel {
		keep = append(keep, imgs[i])
	}
	return scanpdf.Write(keep, dpi), orig.Content
}

// A scan of real pages is read by OCR: the words of the original's text
// layer come back, page markers stay, and a warning and the metadata say
// which pages OCR read and with what confidence.
func TestScanReadByOCR(t *testing.T) {
	e := withOCR(t)
	// Pages 1 of two documents: the others' text layers are mostly in a
	// font without a Unicode map, which OCR reads better than that truth.
	scan, truth := scanOf(t, e, "pdfjs-TAMReview.pdf", "1", 200)
	res, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: scan, ContentType: "application/pdf"})
	if err != nil {
		t.Fatal(err)
	}
	if f1 := scanpdf.F1(res.Content, truth); f1 < 0.9 {
		t.Errorf("word F1 %.3f against the text layer, want at least 0.9:\n%.500s", f1, res.Content)
	}
	if !strings.HasPrefix(res.Content, "<!-- page 1 -->\n\n") || !strings.Contains(res.Content, "Overview of the Technology Acceptance Model") {
		t.Errorf("page markers: %.300q", res.Content)
	}
	if res.Metadata["ocr_pages"] != "1" || res.Metadata["ocr_confidence"] == "" {
		t.Errorf("metadata %v", res.Metadata)
	}
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "page 1 read by OCR (tesseract ") || !strings.Contains(res.Warnings[0], "mean word confidence") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// ocr: never keeps a scan's 422, saying what would read it; without
// tesseract the 422 names the package to install.
func TestScanWithoutOCR(t *testing.T) {
	e := New().(*Extractor) // not configured: no engine
	for _, tc := range []struct {
		name string
		opts map[string]string
		want string
	}{
		{"never", map[string]string{"ocr": "never"}, `turned off (ocr: "never"`},
		{"no engine", nil, "install Debian's tesseract-ocr"},
	} {
		_, err := extract(t, e, "pdfjs-issue12213.pdf", tc.opts)
		var de *sdk.DocError
		if !errors.As(err, &de) || de.Class != ClassNoText || !strings.Contains(de.Message, tc.want) {
			t.Errorf("%s: %v, want no_text saying %q", tc.name, err, tc.want)
		}
	}
}

// Without tesseract, ocr: always on a text page reads its text layer and
// says why in a warning.
func TestAlwaysWithoutOCR(t *testing.T) {
	res, err := extract(t, New().(*Extractor), "pdfjs-TAMReview.pdf", map[string]string{"pages": "1", "ocr": "always"})
	if err != nil || len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], `not applied: ocr "always" (page 1 read from the text layer: `) ||
		!strings.Contains(res.Content, "Technology Acceptance Model") {
		t.Fatalf("%v %q", err, res.Warnings)
	}
}

// Pages with a text layer keep it under ocr: auto; ocr: always reads them
// by OCR too.
func TestOCRModes(t *testing.T) {
	e := withOCR(t)
	auto, err := extract(t, e, "pdfjs-TAMReview.pdf", map[string]string{"pages": "1"})
	if err != nil || auto.Metadata["ocr_pages"] != "" || len(auto.Warnings) != 0 {
		t.Fatalf("auto on a text page: %v %v %q", err, auto.Metadata, auto.Warnings)
	}
	always, err := extract(t, e, "pdfjs-TAMReview.pdf", map[string]string{"pages": "1", "ocr": "always"})
	if err != nil || always.Metadata["ocr_pages"] != "1" {
		t.Fatalf("always: %v %v", err, always.Metadata)
	}
	if f1 := scanpdf.F1(always.Content, auto.Content); f1 < 0.9 {
		t.Errorf("always: word F1 %.3f against the text layer", f1)
	}
}
