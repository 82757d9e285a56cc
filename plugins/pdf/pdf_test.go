package pdf

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// corpus is the shared PDF corpus (../shared/bench/pdf).
var corpus = filepath.Join("..", "..", "..", "shared", "bench", "pdf", "pdf")

func extract(t *testing.T, e *Extractor, file string, opts map[string]string) (*sdk.ExtractResult, error) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(corpus, file))
	if err != nil {
		t.Fatalf("the PDF corpus is required: %v", err)
	}
	return e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "application/pdf", Options: opts})
}

func TestExtract(t *testing.T) {
	e := New().(*Extractor)
	res, err := extract(t, e, "pdfjs-TAMReview.pdf", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Metadata["pages"] != "23" || res.Metadata["encrypted"] != "false" ||
		strings.Count(res.Content, "<!-- page ") != 23 || !strings.HasPrefix(res.Content, "<!-- page 1 -->\n\n") {
		t.Fatalf("metadata %v, content %.200q", res.Metadata, res.Content)
	}
	two, err := extract(t, e, "pdfjs-TAMReview.pdf", map[string]string{"pages": "2-3,2"})
	if err != nil || strings.Count(two.Content, "<!-- page ") != 2 || !strings.HasPrefix(two.Content, "<!-- page 2 -->") ||
		!strings.Contains(two.Content, "<!-- page 3 -->") {
		t.Fatalf("pages 2-3: %v %.200q", err, two.Content)
	}
}

func TestExtractErrors(t *testing.T) {
	e := New().(*Extractor)
	tests := []struct {
		file, pages, class string
	}{
		{"pdfjs-TAMReview.pdf", "40", sdk.ClassBadOption},
		{"pdfjs-TAMReview.pdf", "x", sdk.ClassBadOption},
		{"pdfjs-issue12213.pdf", "", ClassNoText},
		{"pdfjs-issue6010_1.pdf", "", ClassEncrypted},
	}
	for _, tt := range tests {
		_, err := extract(t, e, tt.file, map[string]string{"pages": tt.pages})
		var de *sdk.DocError
		if !errors.As(err, &de) || de.Class != tt.class {
			t.Errorf("%s pages %q: %v, want class %s", tt.file, tt.pages, err, tt.class)
		}
	}
	if _, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: []byte("%PDF-1.7\nnot really")}); err == nil {
		t.Error("garbage was read as a PDF")
	}
}

func TestEmptyPasswordIsRead(t *testing.T) {
	res, err := extract(t, New().(*Extractor), "pdfjs-issue7665.pdf", nil)
	if err != nil || res.Metadata["encrypted"] != "true" {
		t.Fatalf("%v %v", err, res)
	}
}

func TestMaxPages(t *testing.T) {
	e := New().(*Extractor)
	if diags, err := e.Configure(context.Background(), []byte(`{"max_pages": 5}`)); err != nil || diags.HasErrors() {
		t.Fatal(diags, err)
	}
	res, err := extract(t, e, "pdfjs-TAMReview.pdf", nil)
	if err != nil || strings.Count(res.Content, "<!-- page ") != 5 || len(res.Warnings) != 1 || res.Metadata["pages"] != "23" {
		t.Fatalf("%v %v %v", err, res.Warnings, res.Metadata)
	}
}

func TestPDFDate(t *testing.T) {
	for in, want := range map[string]string{
		"D:20150812140322+02'00'": "2015-08-12T14:03:22+02:00",
		"D:20150812140322Z":       "2015-08-12T14:03:22Z",
		"D:20150812":              "2015-08-12T00:00:00Z",
		"yesterday":               "yesterday",
	} {
		if got := pdfDate(in); got != want {
			t.Errorf("pdfDate(%q) = %q, want %q", in, got, want)
		}
	}
}
