package pdf

import (
	"context"
	"fmt"
	"image"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"

	"github.com/siftd/sift/plugins/ocr"
)

// A page is read by OCR, under ocr = "auto", when its text layer holds
// fewer than minTextRunes letters and digits and it draws an image, or
// fewer than thinTextRunes and an image covers coverShare of it (a scan
// whose text layer holds only a page number or a stamp).
const (
	minTextRunes  = 16
	thinTextRunes = 200
	coverShare    = 0.7
)

// Resolution a page is rendered at for OCR: a scan at its own image's
// resolution, within these bounds; a page drawn otherwise at defaultDPI.
const (
	minDPI     = 150
	maxDPI     = 400
	defaultDPI = 300
)

// scanPage is a page to read by OCR, with the resolution to render it at.
type scanPage struct {
	at  int // index into the selection
	dpi int
}

// scanPages are the pages of the selection to read by OCR under mode.
func scanPages(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages []int, texts []string, mode ocr.Mode) []scanPage {
	var out []scanPage
	for i, idx := range pages {
		if mode == ocr.Never {
			break
		}
		page := requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: idx}}
		runes := textRunes(texts[i])
		if mode == ocr.Auto && runes >= thinTextRunes {
			continue
		}
		cover, dpi := largestImage(inst, doc, page, idx)
		if mode == ocr.Auto && !(runes < minTextRunes && (cover > 0 || mayHoldImages(inst, page)) || cover >= coverShare) {
			continue
		}
		out = append(out, scanPage{at: i, dpi: dpi})
	}
	return out
}

// textRunes counts the letters and digits of a page's text.
func textRunes(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// largestImage finds the page's largest image: the share of the page it
// covers, and the resolution to render the page at to keep its pixels.
func largestImage(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, page requests.Page, idx int) (cover float64, dpi int) {
	dpi = defaultDPI
	size, err := inst.FPDF_GetPageSizeByIndex(&requests.FPDF_GetPageSizeByIndex{Document: doc, Index: idx})
	if err != nil || size.Width <= 0 || size.Height <= 0 {
		return 0, dpi
	}
	n, err := inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: page})
	if err != nil {
		return 0, dpi
	}
	best := 0.0
	for i := range n.Count {
		obj, err := inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: page, Index: i})
		if err != nil {
			continue
		}
		typ, err := inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: obj.PageObject})
		if err != nil || typ.Type != enums.FPDF_PAGEOBJ_IMAGE {
			continue
		}
		b, err := inst.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj.PageObject})
		if err != nil {
			continue
		}
		w, h := float64(b.Right-b.Left), float64(b.Top-b.Bottom)
		area := w * h / (size.Width * size.Height)
		if area <= best || w <= 0 {
			continue
		}
		best = area
		px, err := inst.FPDFImageObj_GetImagePixelSize(&requests.FPDFImageObj_GetImagePixelSize{ImageObject: obj.PageObject})
		if err == nil && px.Width > 0 {
			dpi = int(math.Round(float64(px.Width) / (w / 72)))
		}
	}
	return min(best, 1), min(max(dpi, minDPI), maxDPI)
}

// maxRenderPixels bounds a page's rendering for OCR: a page of 200 × 200
// inches (PDF allows them) is rendered at a lower resolution, not into
// gigabytes.
const maxRenderPixels = ocr.DefaultMaxPixels

// rendered is one page rendered for OCR.
type rendered struct {
	scan scanPage
	img  *image.Gray
	err  error
}

// ocrResult is what reading the scan pages gave.
type ocrResult struct {
	read       []int // 1-based numbers of the pages read
	confidence float64
	words      int
	failures   []string
}

// readScans renders the scan pages one after another on inst and reads
// them by OCR in parallel, as many at once as the machine has cores
// (the engine's slots hold all of sift's processes to that), writing each
// page's text into texts: always under ocr: always, else where OCR found
// more than its text layer had.
func readScans(ctx context.Context, engine *ocr.Engine, inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, pages []int, scans []scanPage, texts []string, mode ocr.Mode) (ocrResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	queue := make(chan rendered, 1)
	go func() {
		defer close(queue)
		for _, s := range scans {
			img, err := renderGray(inst, doc, pages[s.at], s.dpi)
			select {
			case queue <- rendered{scan: s, img: img, err: err}:
			case <-ctx.Done():
				return
			}
		}
	}()
	var (
		mu  sync.Mutex
		res ocrResult
		wg  sync.WaitGroup
	)
	sum := 0.0
	for range min(runtime.NumCPU(), len(scans)) {
		wg.Go(func() {
			for r := range queue {
				num := pages[r.scan.at] + 1
				if r.err != nil {
					mu.Lock()
					res.failures = append(res.failures, fmt.Sprintf("page %d: %v", num, r.err))
					mu.Unlock()
					continue
				}
				page, err := engine.Recognize(ctx, r.img, r.scan.dpi)
				mu.Lock()
				switch {
				case err != nil:
					res.failures = append(res.failures, fmt.Sprintf("page %d: %v", num, err))
				case mode == ocr.Always && page.Text != "" || textRunes(page.Text) > textRunes(texts[r.scan.at]):
					texts[r.scan.at] = page.Text
					res.read = append(res.read, num)
					sum += page.Confidence * float64(page.Words)
					res.words += page.Words
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if res.words > 0 {
		res.confidence = sum / float64(res.words)
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("read scanned pages: %w", err)
	}
	return res, nil
}

// renderGray renders page idx in grey at dpi, lowered to fit
// maxRenderPixels, copied out of PDFium's memory.
func renderGray(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT, idx, dpi int) (*image.Gray, error) {
	if size, err := inst.FPDF_GetPageSizeByIndex(&requests.FPDF_GetPageSizeByIndex{Document: doc, Index: idx}); err == nil && size.Width > 0 && size.Height > 0 {
		if px := size.Width / 72 * size.Height / 72 * float64(dpi*dpi); px > maxRenderPixels {
			dpi = int(float64(dpi) * math.Sqrt(maxRenderPixels/px))
		}
	}
	if dpi < 1 {
		return nil, fmt.Errorf("the page is too large to render")
	}
	out, err := inst.RenderPageInDPI(&requests.RenderPageInDPI{
		Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: idx}}, DPI: dpi,
		RenderForm: true, Document: &doc, ImageFormat: requests.RenderImageFormatGrayscale,
	})
	if err != nil {
		return nil, fmt.Errorf("render for OCR: %w", err)
	}
	defer out.Cleanup()
	g, ok := out.Result.RenderedImage.(*image.Gray)
	if !ok {
		return nil, fmt.Errorf("render for OCR: got %T", out.Result.RenderedImage)
	}
	return &image.Gray{Pix: append([]byte(nil), g.Pix...), Stride: g.Stride, Rect: g.Rect}, nil
}

// pageList writes page numbers as ranges: "1-3, 5".
func pageList(nums []int) string {
	var parts []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, strconv.Itoa(nums[i])+"-"+strconv.Itoa(nums[j]))
		} else {
			parts = append(parts, strconv.Itoa(nums[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// Render renders every page of a PDF in grey at dpi, as a scanner would
// see them: tests and benchmarks make scans of real PDFs with it.
func (e *Extractor) Render(body []byte, dpi int) ([]*image.Gray, error) {
	inst, err := e.engine.instance()
	if err != nil {
		return nil, err
	}
	opened, err := inst.OpenDocument(&requests.OpenDocument{File: &body})
	if err != nil {
		return nil, openError(err)
	}
	doc := opened.Document
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc})
	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc})
	if err != nil {
		return nil, fmt.Errorf("count pages: %w", err)
	}
	out := make([]*image.Gray, count.PageCount)
	for i := range out {
		if out[i], err = renderGray(inst, doc, i, dpi); err != nil {
			return nil, fmt.Errorf("page %d: %w", i+1, err)
		}
	}
	return out, nil
}
