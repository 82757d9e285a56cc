package pdf

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"

	"github.com/siftd/sift/plugins/sdk"
)

// corpus holds the test PDFs; testdata/SOURCES.md says where each comes from.
const corpus = "testdata"

func extract(t *testing.T, e *Extractor, file string, opts map[string]string) (*sdk.ExtractResult, error) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(corpus, file))
	if err != nil {
		t.Fatal(err)
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

// Characters outside the Basic Multilingual Plane (here mathematical
// italics) come through whole, and the mark PDFium's page text leaves where
// a word was hyphenated across lines does not come through at all.
func TestPageTextWholeCharacters(t *testing.T) {
	res, err := extract(t, New().(*Extractor), "pdfjs-bug1997343.pdf", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Content, "Let 𝑝 be a prime") {
		t.Errorf("the italic p is not read whole: %.300q", res.Content)
	}
	// The column's last line ends "The docu-", and a footnote follows.
	if !strings.Contains(res.Content, "The docu-\n1The current") {
		t.Errorf("the hyphen at the column's foot was joined to the footnote: %.300q", res.Content[strings.Index(res.Content, "The docu"):])
	}
	if i := strings.IndexAny(res.Content, "\ufffd\ufffe"); i >= 0 {
		t.Errorf("a replacement or non-character at byte %d: %q", i, res.Content[max(0, i-40):min(len(res.Content), i+40)])
	}
}

func TestCleanText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"produc\ufffetion of", "production of"},
		{"COPY\ufffeRIGHT", "COPYRIGHT"},
		{"commercial cre\ufffe8 FREE CULTURE", "commercial cre-\n8 FREE CULTURE"},
		{"Coding\ufffeAttribute", "Coding-\nAttribute"},
		{"the end\ufffe", "the end-"},
		{"a\r\nb\rc\x00d\te", "a\nb\ncd\te"},
	}
	for _, tt := range tests {
		if got := cleanText(tt.in); got != tt.want {
			t.Errorf("cleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExtractErrors(t *testing.T) {
	e := New().(*Extractor)
	tests := []struct {
		file, pages, class, message string
	}{
		{"pdfjs-TAMReview.pdf", "40", sdk.ClassBadOption, "page 40 is past the last page (23)"},
		{"pdfjs-TAMReview.pdf", "x", sdk.ClassBadOption, `"x" is not a page number`},
		{"pdfjs-issue12213.pdf", "", ClassNoText, "needs OCR"},
		{"blank-drawing.pdf", "", ClassEmpty, "hold no text and no images: there is nothing to read"},
		{"pdfjs-issue6010_1.pdf", "", ClassEncrypted, "needs a password"},
		{"hostile/qpdf-bad1.pdf", "", sdk.ClassInvalid, "malformed PDF: not a PDF, or damaged past reading"},
	}
	for _, tt := range tests {
		_, err := extract(t, e, tt.file, map[string]string{"pages": tt.pages})
		var de *sdk.DocError
		if !errors.As(err, &de) || de.Class != tt.class || !strings.Contains(de.Message, tt.message) {
			t.Errorf("%s pages %q: %v, want class %s saying %q", tt.file, tt.pages, err, tt.class, tt.message)
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

// openCorpus opens a corpus file in the extractor's first instance.
func openCorpus(t *testing.T, e *Extractor, file string) (pdfium.Pdfium, references.FPDF_DOCUMENT, []byte) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(corpus, file))
	if err != nil {
		t.Fatal(err)
	}
	inst, err := e.engine.instance()
	if err != nil {
		t.Fatal(err)
	}
	opened, err := inst.OpenDocument(&requests.OpenDocument{File: &body})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: opened.Document}) })
	return inst, opened.Document, body
}

// Form fields are flattened into the page, so their values are read; a
// page whose only annotation is a link is left alone.
func TestFormsFlattenedLinksNot(t *testing.T) {
	e := New().(*Extractor)
	inst, doc, _ := openCorpus(t, e, "qpdf-sample-form.pdf")
	page := requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: 0}}
	if !hasDrawnAnnots(inst, page) {
		t.Fatal("a page of form fields was not taken for flattening")
	}
	if text := readPage(inst, doc, 0); !strings.Contains(text, "ABC DEF Man Blue") {
		t.Fatalf("the filled-in values are missing: %q", text)
	}
	inst, doc, _ = openCorpus(t, e, "pdfjs-TAMReview.pdf")
	for i := range 23 {
		if hasDrawnAnnots(inst, requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: i}}) {
			t.Fatalf("page %d, with links only, was taken for flattening", i+1)
		}
	}
}

// A long document read by two instances reads exactly as by one.
func TestParallelReadEqualsSerial(t *testing.T) {
	e := New().(*Extractor)
	inst, doc, body := openCorpus(t, e, "pdfjs-TAMReview.pdf")
	pages := make([]int, 23)
	for i := range pages {
		pages[i] = i
	}
	texts := make([]string, len(pages))
	for i, idx := range pages {
		texts[i] = readPage(inst, doc, idx)
	}
	serial, _ := joinPages(pages, texts)
	parallel, hasText := joinPages(pages, e.readPages(inst, doc, body, pages))
	if !hasText || parallel != serial {
		t.Fatalf("parallel read differs from serial: %d vs %d bytes", len(parallel), len(serial))
	}
	if _, err := e.engine.helper(); err != nil {
		t.Fatalf("no helper instance: %v", err)
	}
}

// The pdf extractor's container rule recognises a PDF served with a
// generic type by its header, also after junk a server prepended, and
// claims nothing else.
func TestContainerRuleRecognisesPDFs(t *testing.T) {
	info, err := New().Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	set, err := sdk.CompileContainerRules(info.Containers)
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := os.ReadFile(filepath.Join(corpus, "pdfjs-TAMReview.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		body []byte
		want bool
	}{
		{"a pdf", pdf, true},
		{"after 1000 bytes of junk", append(bytes.Repeat([]byte("\r\n"), 500), pdf...), true},
		{"after 2 KiB of junk", append(bytes.Repeat([]byte(" "), 2048), pdf...), false},
		{"a zip", []byte("PK\x03\x04"), false},
		{"the header after text", []byte("junk %PDF-1.4"), true}, // anywhere in the first KiB, as readers take it
		{"no header", []byte("the %PDF format"), false},
	} {
		if got := len(set.Match(tc.body)) > 0; got != tc.want {
			t.Errorf("%s: claimed %v, want %v", tc.name, got, tc.want)
		}
	}
}
