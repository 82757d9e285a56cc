package pdf

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/siftd/sift/plugins/sdk"
)

// pdftotextTimeout bounds one pdftotext run, as the corpus scorer does.
const pdftotextTimeout = 20 * time.Second

// BenchmarkCorpusPages reads every PDF under $PDF_BENCH/pdf with a warm
// extractor and, when poppler's pdftotext is installed, with pdftotext
// (one process per file, as a user runs it), and prints each one's pages
// per second over the files both read. Without PDF_BENCH it is skipped:
// the corpus is not part of the repository.
func BenchmarkCorpusPages(b *testing.B) {
	dir := os.Getenv("PDF_BENCH")
	if dir == "" {
		b.Skip("PDF_BENCH names no corpus")
	}
	files, err := filepath.Glob(filepath.Join(dir, "pdf", "*.pdf"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no PDFs under %s/pdf: %v", dir, err)
	}
	pdftotext, _ := exec.LookPath("pdftotext")
	e := New().(*Extractor)
	// Warm the engine (the pool's instances are warm in sift serve).
	if body, err := os.ReadFile(files[0]); err == nil {
		_, _ = e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "application/pdf"})
	}
	for b.Loop() {
		var pages, both int
		var siftTime, popplerTime time.Duration
		for _, f := range files {
			body, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			res, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "application/pdf"})
			took := time.Since(start)
			if err != nil {
				continue
			}
			n, _ := strconv.Atoi(res.Metadata["pages"])
			n = min(n, DefaultMaxPages)
			if pdftotext == "" {
				siftTime, pages = siftTime+took, pages+n
				continue
			}
			ptook, ok := runPdftotext(pdftotext, f)
			if !ok {
				continue
			}
			siftTime, popplerTime, pages, both = siftTime+took, popplerTime+ptook, pages+n, both+1
		}
		fmt.Printf("PDF corpus, %d files: sift's pdf extractor (warm, in process) %d pages in %v: %.0f pages/s, %.2f ms a page\n",
			len(files), pages, siftTime.Round(time.Millisecond), float64(pages)/siftTime.Seconds(), perPage(siftTime, pages))
		if pdftotext != "" {
			fmt.Printf("pdftotext, one process a file, over the same %d files: %v: %.0f pages/s, %.2f ms a page; sift/pdftotext pages/s %.2f\n",
				both, popplerTime.Round(time.Millisecond), float64(pages)/popplerTime.Seconds(), perPage(popplerTime, pages),
				popplerTime.Seconds()/siftTime.Seconds())
			b.ReportMetric(float64(pages)/popplerTime.Seconds(), "pdftotext_pages/s")
		}
		b.ReportMetric(float64(pages)/siftTime.Seconds(), "sift_pages/s")
	}
}

func perPage(d time.Duration, pages int) float64 {
	if pages == 0 {
		return 0
	}
	return float64(d.Microseconds()) / 1000 / float64(pages)
}

// runPdftotext runs pdftotext on file and reports how long it took and
// whether it read the file.
func runPdftotext(bin, file string) (time.Duration, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), pdftotextTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, file, "-")
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	return time.Since(start), err == nil
}
