// Package pdf is the built-in extractor for PDFs: the text of each page in
// PDFium's reading order, pages marked `<!-- page N -->`, with the
// document's metadata. It runs in its own pool of plugin processes, where
// a hostile file's hang or runaway memory costs one process and one
// request.
package pdf

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	pdfiumerrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"

	"github.com/siftd/sift/plugins/ocr"
	"github.com/siftd/sift/plugins/sdk"
)

// Defaults of the pdf block.
const (
	DefaultMaxPages  = 500
	DefaultMaxOutput = 2 << 20
)

// Error classes a PDF adds to sdk's.
const (
	// ClassNoText is a PDF without a text layer (a scan): it needs OCR.
	ClassNoText = "no_text"
	// ClassEncrypted is a PDF that needs a password.
	ClassEncrypted = "encrypted"
	// ClassEmpty is a PDF whose pages hold neither text nor images:
	// nothing to read, by OCR or otherwise.
	ClassEmpty = "empty"
)

// PageMarker starts each page's text: `<!-- page 3 -->`. Markdown renders
// nothing for it; `sift extract --format text` turns it into form feeds.
const PageMarker = "<!-- page %d -->"

type config struct {
	MaxPages       int      `json:"max_pages"`
	OCRLanguages   []string `json:"ocr_languages"`
	OCRPageTimeout string   `json:"ocr_page_timeout"`
	OCRPageMemory  string   `json:"ocr_page_memory"`
}

// Extractor reads PDFs with PDFium, and their scanned pages by OCR.
type Extractor struct {
	cfg    config
	engine engine
	// ocr reads scanned pages; nil without tesseract.
	ocr *ocr.Engine
}

// New returns the PDF extractor.
func New() sdk.Extractor { return &Extractor{cfg: config{MaxPages: DefaultMaxPages}} }

// Info names the media type handled.
func (*Extractor) Info(context.Context) (sdk.Info, error) {
	return sdk.Info{Name: "pdf", Version: "1.0.0", ContentTypes: []string{"application/pdf"},
		Capabilities: []string{sdk.CapabilityCostly},
		// A PDF served as application/octet-stream (object stores send
		// that for any file) or with no type; readers accept the header
		// anywhere in the first KiB, after junk a server prepended.
		Containers: []sdk.ContainerRule{{MediaType: "application/pdf", Extensions: []string{"pdf"}, Magic: "%PDF-", MagicWithin: 1 << 10}}}, nil
}

// Schema lists the pdf block's own attribute.
func (*Extractor) Schema(context.Context) (sdk.Schema, error) {
	return sdk.Schema{Attributes: append([]sdk.Attribute{
		{Name: "max_pages", Type: sdk.TypeInteger, Description: fmt.Sprintf("pages read at most per document (default %d)", DefaultMaxPages)},
	}, ocr.Attributes("ocr_")...), Options: []sdk.Option{
		{Name: "pages", Type: sdk.TypeString, MaxLength: 1024, Description: `the pages to read, as "1-3,7"`},
		{Name: "max_pages", Type: sdk.TypeInteger, Min: sdk.Bound(1), Description: "read only the first N pages of the selection"},
		ocr.ModeOption,
	}}, nil
}

// Configure reads max_pages and finds the OCR engine.
func (e *Extractor) Configure(ctx context.Context, raw json.RawMessage) (sdk.Diagnostics, error) {
	cfg := config{MaxPages: DefaultMaxPages}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &cfg); err != nil {
			return nil, fmt.Errorf("decode config: %w", err)
		}
	}
	if cfg.MaxPages <= 0 {
		return sdk.Diagnostics{{Severity: sdk.SeverityError, Summary: "Invalid max_pages", Detail: "max_pages must be at least 1.", Attribute: "max_pages"}}, nil
	}
	engine, diags := ocr.Config{Languages: cfg.OCRLanguages, PageTimeout: cfg.OCRPageTimeout, PageMemory: cfg.OCRPageMemory}.Start(ctx, "ocr_")
	if diags.HasErrors() {
		return diags, nil
	}
	// A missing engine is the ocr extractor's to warn of, once; a scan's
	// 422 here names the package (noTextError).
	e.cfg, e.ocr = cfg, engine
	return nil, nil
}

// Extract returns the selected pages' text, each after its page marker.
func (e *Extractor) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	inst, err := e.engine.instance()
	if err != nil {
		return nil, err
	}
	opened, err := inst.OpenDocument(&requests.OpenDocument{File: &req.Body})
	if err != nil {
		return nil, openError(err)
	}
	doc := opened.Document
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc})
	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc})
	if err != nil {
		return nil, &sdk.DocError{Class: sdk.ClassInvalid, Message: "malformed PDF: " + err.Error()}
	}
	pages, err := parsePages(req.Options["pages"], count.PageCount)
	if err != nil {
		return nil, &sdk.DocError{Class: sdk.ClassBadOption, Message: err.Error()}
	}
	if pages, err = firstPages(pages, req.Options["max_pages"]); err != nil {
		return nil, &sdk.DocError{Class: sdk.ClassBadOption, Message: err.Error()}
	}
	res := &sdk.ExtractResult{Format: sdk.FormatMarkdown, Metadata: metadata(inst, doc, count.PageCount)}
	res.Title = res.Metadata["title"]
	if len(pages) > e.cfg.MaxPages {
		res.Warnings = append(res.Warnings, fmt.Sprintf("read the first %d of %d pages (max_pages)", e.cfg.MaxPages, len(pages)))
		pages = pages[:e.cfg.MaxPages]
	}
	texts := e.readPages(inst, doc, req.Body, pages)
	mode := ocr.RequestMode(req.Options)
	var failures []string
	if scans := scanPages(inst, doc, pages, texts, mode); len(scans) > 0 && e.ocr != nil {
		read, err := readScans(ctx, e.ocr, inst, doc, pages, scans, texts, mode)
		if err != nil {
			return nil, err
		}
		if len(read.read) > 0 {
			slices.Sort(read.read)
			res.Warnings = append(res.Warnings, e.ocr.Warning(pagesWord(read.read), read.confidence, read.words))
			res.Metadata["ocr_pages"] = pageList(read.read)
			res.Metadata["ocr_confidence"] = strconv.FormatFloat(read.confidence, 'f', 1, 64)
		}
		failures = read.failures
	} else if len(scans) > 0 {
		nums := make([]int, len(scans))
		for i, s := range scans {
			nums[i] = pages[s.at] + 1
		}
		if mode == ocr.Always {
			res.Warnings = append(res.Warnings, fmt.Sprintf("not applied: ocr \"always\" (%s read from the text layer: %s)", pagesWord(nums), ocr.ErrMissing))
		} else {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s not read: no text layer, and %s", pagesWord(nums), ocr.ErrMissing))
		}
	}
	content, hasText := joinPages(pages, texts)
	if !hasText {
		return nil, e.noTextError(inst, doc, pages, mode, failures)
	}
	for _, f := range failures {
		res.Warnings = append(res.Warnings, "OCR failed on "+f)
	}
	var warning string
	if res.Content, warning = sdk.CapOutput(content, req.MaxOutputBytes, DefaultMaxOutput); warning != "" {
		res.Warnings = append(res.Warnings, warning)
	}
	return res, nil
}

// noTextError says why a PDF gave no text: pages drawn from images (a
// scan) need OCR, which the request turned off, which is not installed,
// or which failed or found nothing; pages with neither text nor images
// are empty, and OCR would not help.
func (e *Extractor) noTextError(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages []int, mode ocr.Mode, failures []string) error {
	for _, idx := range pages {
		if mayHoldImages(inst, requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: idx}}) {
			msg := "the PDF has no text layer (a scan?); reading it needs OCR"
			switch {
			case mode == ocr.Never:
				msg += `, which this request turned off (ocr: "never"; send "auto" to read it)`
			case e.ocr == nil:
				msg += ": " + ocr.ErrMissing.Error()
			case len(failures) > 0:
				msg += ", which failed on " + strings.Join(failures, "; ")
			default:
				msg += ", and OCR found no text on its pages"
			}
			return &sdk.DocError{Class: ClassNoText, Message: msg}
		}
	}
	return &sdk.DocError{Class: ClassEmpty, Message: "the PDF's pages hold no text and no images: there is nothing to read"}
}

// mayHoldImages reports whether a page draws an image, or a form XObject
// that may hold one; a page that cannot be read counts as one that may.
func mayHoldImages(inst pdfium.Pdfium, page requests.Page) bool {
	n, err := inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: page})
	if err != nil {
		return true
	}
	for i := range n.Count {
		obj, err := inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: page, Index: i})
		if err != nil {
			return true
		}
		typ, err := inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: obj.PageObject})
		if err != nil || typ.Type == enums.FPDF_PAGEOBJ_IMAGE || typ.Type == enums.FPDF_PAGEOBJ_FORM {
			return true
		}
	}
	return false
}

// parallelPages is the length from which a document is read by two PDFium
// instances at once. Opening a document again costs little beside reading
// its pages: through sift serve the corpus read at 0.95–0.99 of
// pdftotext's pages/s with 16 here and 1.02–1.08 with 4 (2 was no better).
const parallelPages = 4

// readPages reads the pages' text, sharing a long document between the
// instance that opened it and a helper instance that opens it again. Each
// takes the next unread page, so neither idles while the other is left
// with a document's heavy pages (a fixed half each left one core idle on
// a third of the corpus's long documents).
func (e *Extractor) readPages(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, body []byte, pages []int) []string {
	texts := make([]string, len(pages))
	var next atomic.Int64
	read := func(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT) {
		for i := next.Add(1) - 1; i < int64(len(pages)); i = next.Add(1) - 1 {
			texts[i] = readPage(inst, doc, pages[i])
		}
	}
	if helper, helperDoc, ok := e.openInHelper(body, len(pages)); ok {
		defer helper.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: helperDoc})
		var helping sync.WaitGroup
		var fault any
		helping.Go(func() {
			// A panic here is raised again below, where the request's own
			// recovery turns it into this document's error.
			defer func() { fault = recover() }()
			read(helper, helperDoc)
		})
		func() {
			// Even when this instance's read panics, the helper's document
			// is closed only once the helper is done with it.
			defer helping.Wait()
			read(inst, doc)
		}()
		if fault != nil {
			panic(fault)
		}
	} else {
		read(inst, doc)
	}
	return texts
}

// openInHelper opens a long document in the helper instance too; ok is
// false for a short one, or when the helper cannot read it.
func (e *Extractor) openInHelper(body []byte, pages int) (pdfium.Pdfium, references.FPDF_DOCUMENT, bool) {
	if pages < parallelPages {
		return nil, "", false
	}
	helper, err := e.engine.helper()
	if err != nil {
		return nil, "", false
	}
	opened, err := helper.OpenDocument(&requests.OpenDocument{File: &body})
	if err != nil {
		return nil, "", false
	}
	return helper, opened.Document, true
}

// pagesWord names pages for a warning: "page 3", "pages 1-3, 5".
func pagesWord(nums []int) string {
	if len(nums) == 1 {
		return "page " + strconv.Itoa(nums[0])
	}
	return "pages " + pageList(nums)
}

// joinPages puts each page's text after its marker and reports whether
// any page had text.
func joinPages(pages []int, texts []string) (string, bool) {
	var b strings.Builder
	hasText := false
	for i, idx := range pages {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, PageMarker, idx+1)
		if texts[i] != "" {
			hasText = true
			b.WriteString("\n\n")
			b.WriteString(texts[i])
		}
	}
	return b.String(), hasText
}

// readPage reads one page's text, cleaned; an unreadable page is empty,
// and the others still count.
func readPage(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, idx int) string {
	page := requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: idx}}
	// Flattening draws form fields and annotations into the page, so
	// their text (filled-in forms, stamps, comments) is read too, as
	// poppler reads it: +0.023 F1 on the corpus (0.883 → 0.906).
	// Flattening rewrites the page, so it is done only where an
	// annotation may draw text: it cost a third of the corpus's time
	// when every page was flattened.
	if hasDrawnAnnots(inst, page) {
		_, _ = inst.FPDFPage_Flatten(&requests.FPDFPage_Flatten{Page: page, Usage: requests.FPDFPage_FlattenUsageNormalDisplay})
	}
	text, err := pageText(inst, page)
	if err != nil {
		return ""
	}
	return cleanText(text)
}

// pageText reads a page's text in one call into PDFium. go-pdfium's
// GetPageText asks for it a UTF-16 unit at a time, which splits characters
// outside the Basic Multilingual Plane (mathematical letters, emoji) into
// two replacement characters, and took a fifth longer.
func pageText(inst pdfium.Pdfium, page requests.Page) (string, error) {
	loaded, err := inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: page})
	if err != nil {
		return "", fmt.Errorf("load page text: %w", err)
	}
	defer inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: loaded.TextPage})
	count, err := inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: loaded.TextPage})
	if err != nil {
		return "", fmt.Errorf("count page text: %w", err)
	}
	if count.Count <= 0 {
		return "", nil
	}
	text, err := inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: loaded.TextPage, Count: count.Count})
	if err != nil {
		return "", fmt.Errorf("read page text: %w", err)
	}
	return text.Text, nil
}

// hasDrawnAnnots reports whether the page has an annotation that may draw
// text when flattened: anything but links and popups, which have no
// appearance of their own.
func hasDrawnAnnots(inst pdfium.Pdfium, page requests.Page) bool {
	n, err := inst.FPDFPage_GetAnnotCount(&requests.FPDFPage_GetAnnotCount{Page: page})
	if err != nil {
		return false
	}
	for i := 0; i < n.Count; i++ {
		annot, err := inst.FPDFPage_GetAnnot(&requests.FPDFPage_GetAnnot{Page: page, Index: i})
		if err != nil {
			continue
		}
		sub, err := inst.FPDFAnnot_GetSubtype(&requests.FPDFAnnot_GetSubtype{Annotation: annot.Annotation})
		_, _ = inst.FPDFPage_CloseAnnot(&requests.FPDFPage_CloseAnnot{Annotation: annot.Annotation})
		if err == nil && sub.Subtype != enums.FPDF_ANNOT_SUBTYPE_LINK && sub.Subtype != enums.FPDF_ANNOT_SUBTYPE_POPUP {
			return true
		}
	}
	return false
}

// cleanText normalises PDFium's line breaks, drops control characters
// other than newlines and tabs, and reads the U+FFFE PDFium's page text
// puts for a hyphen at a line's end (see dehyphenate).
func cleanText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	var b strings.Builder
	b.Grow(len(s))
	var prev rune
	for i, r := range s {
		switch {
		case r == softHyphenBreak:
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(softHyphenBreak):])
			b.WriteString(dehyphenate(prev, next))
		case r == '\n' || r == '\t' || !unicode.IsControl(r):
			b.WriteRune(r)
		}
		prev = r
	}
	return strings.TrimSpace(b.String())
}

// softHyphenBreak is what PDFium's page text has, without the line break,
// where a line ends in a hyphen it takes for a word's break.
const softHyphenBreak = '\ufffe'

// dehyphenate joins a word broken across lines ("produc-" / "tion") when
// the next line goes on with it: a lower-case letter, or any letter after
// an upper-case one ("COPY-" / "RIGHT"). Otherwise the hyphen and the
// line break stay, as pdftotext prints them: at a page's foot the next
// "line" is a page number or a running head, and joining made "cre8 FREE
// CULTURE" of "cre-" and "8 FREE CULTURE".
func dehyphenate(prev, next rune) string {
	if unicode.IsLower(next) || unicode.IsUpper(prev) && unicode.IsLetter(next) {
		return ""
	}
	return "-\n"
}

// openError classes a document PDFium could not open.
func openError(err error) error {
	switch {
	case errors.Is(err, pdfiumerrors.ErrPassword):
		return &sdk.DocError{Class: ClassEncrypted, Message: "the PDF needs a password; sift reads PDFs without one or with an empty one"}
	case errors.Is(err, pdfiumerrors.ErrSecurity):
		return &sdk.DocError{Class: ClassEncrypted, Message: "the PDF uses an encryption sift cannot read"}
	case errors.Is(err, pdfiumerrors.ErrFormat):
		return &sdk.DocError{Class: sdk.ClassInvalid, Message: "malformed PDF: not a PDF, or damaged past reading"}
	case errors.Is(err, pdfiumerrors.ErrFile):
		return &sdk.DocError{Class: sdk.ClassInvalid, Message: "malformed PDF: its structure could not be read"}
	default:
		return &sdk.DocError{Class: sdk.ClassInvalid, Message: "malformed PDF: " + err.Error()}
	}
}

// metadata reads the document information sift reports.
func metadata(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages int) map[string]string {
	md := map[string]string{"pages": strconv.Itoa(pages), "encrypted": "false"}
	for tag, key := range map[string]string{"Title": "title", "Author": "author", "CreationDate": "created"} {
		v, err := inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: doc, Tag: tag})
		if err != nil || strings.TrimSpace(v.Value) == "" {
			continue
		}
		md[key] = strings.TrimSpace(v.Value)
	}
	if c, ok := md["created"]; ok {
		md["created"] = pdfDate(c)
	}
	if rev, err := inst.FPDF_GetSecurityHandlerRevision(&requests.FPDF_GetSecurityHandlerRevision{Document: doc}); err == nil && rev.SecurityHandlerRevision != -1 {
		md["encrypted"] = "true"
	}
	return md
}

// pdfDate turns a PDF date ("D:20150812140322+02'00'") into RFC 3339, or
// returns it as it is when it does not parse.
func pdfDate(s string) string {
	raw := strings.TrimPrefix(s, "D:")
	raw = strings.ReplaceAll(raw, "'", "")
	for _, layout := range []string{"20060102150405-0700", "20060102150405Z", "20060102150405", "200601021504", "20060102"} {
		if t, err := time.Parse(layout, raw); err == nil {
			return t.Format(time.RFC3339)
		}
	}
	return s
}

var _ sdk.Extractor = (*Extractor)(nil)
