package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testenv"
	"github.com/siftd/sift/plugins/pdf"
)

// BenchmarkPDFFetch fetches every PDF under $PDF_BENCH/pdf through
// /v1/fetch of `sift serve` (guard, fetch, and the pdf extractor's warm
// pool of two plugin processes, its block as config.hcl ships it) from a
// loopback origin and, file by file in the same run, reads it with
// poppler's pdftotext, one process a file as a user runs it, each pdfRuns
// times. It prints pages/s of each over the files both read. Without
// PDF_BENCH it is skipped: the corpus is not part of the repository.
func BenchmarkPDFFetch(b *testing.B) {
	dir := os.Getenv("PDF_BENCH")
	if dir == "" {
		skipBench(b, "PDF_BENCH names no corpus (make bench PDF_BENCH=DIR)")
	}
	files, err := filepath.Glob(filepath.Join(dir, "pdf", "*.pdf"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no PDFs under %s/pdf: %v", dir, err)
	}
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		skipBench(b, "pdftotext is not installed (apt-get install poppler-utils)")
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := os.ReadFile(filepath.Join(dir, "pdf", filepath.Base(r.URL.Path)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(body)
	}))
	b.Cleanup(origin.Close)
	addr, _ := startSiftCmd(b, origin, testenv.ShippedBlock(b, "extractor", "pdf"))
	var mu sync.Mutex
	refused := map[string]int{} // why sift read no pages, by error class
	refuse := func(why string) {
		mu.Lock()
		defer mu.Unlock()
		refused[why]++
	}
	fetchPDF := func(name string) (int, time.Duration, bool) {
		body, _ := json.Marshal(map[string]any{"url": origin.URL + "/" + url.PathEscape(name)})
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/fetch", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+sdkKey)
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var out struct {
			Metadata map[string]string `json:"metadata"`
			Error    string            `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK {
			class, _, _ := strings.Cut(out.Error, ":")
			refuse(fmt.Sprintf("%d %s", resp.StatusCode, class))
			return 0, 0, false
		}
		n, err := strconv.Atoi(out.Metadata["pages"])
		if err != nil || n == 0 {
			refuse("no pages")
		}
		return min(n, pdf.DefaultMaxPages), time.Since(start), err == nil && n > 0
	}
	var warm sync.WaitGroup // two at once, so both of the pool's processes start before the timing
	for _, f := range files[:2] {
		warm.Go(func() { fetchPDF(filepath.Base(f)) })
	}
	warm.Wait()
	for b.Loop() {
		clear(refused)
		var pages, read, siftFailed, popplerFailed int
		var siftTime, popplerTime time.Duration
		for _, f := range files {
			n, took, ptook, ok := timeBoth(func() (int, time.Duration, bool) { return fetchPDF(filepath.Base(f)) },
				func(n int) (time.Duration, bool) { return timePdftotext(pdftotext, f, n) })
			switch {
			case n == 0:
				siftFailed++
			case !ok:
				popplerFailed++
			default:
				pages, read, siftTime, popplerTime = pages+n, read+1, siftTime+took, popplerTime+ptook
			}
		}
		if read == 0 || pages == 0 {
			b.Fatal("no PDF was read by both")
		}
		siftRate, popplerRate := float64(pages)/siftTime.Seconds(), float64(pages)/popplerTime.Seconds()
		fmt.Printf("PDFs through /v1/fetch (loopback origin, warm pool), %d of %d files (sift read no pages of %d: %v; pdftotext failed %d more), "+
			"%d pages, the median of %d runs a file: %.0f pages/s; pdftotext, one process a file: %.0f pages/s; sift/pdftotext %.2f\n",
			read, len(files), siftFailed, refused, popplerFailed, pages, pdfRuns, siftRate, popplerRate, siftRate/popplerRate)
		b.ReportMetric(siftRate, "sift_pages/s")
		b.ReportMetric(popplerRate, "pdftotext_pages/s")
		b.ReportMetric(siftRate/popplerRate, "sift/pdftotext")
	}
}

// pdfRuns is how many times each file is read by each, alternately; the
// median run of each counts, so that a neighbour's burst on the shared
// machine during one run does not decide a file's figure.
const pdfRuns = 3

// timeBoth reads a file pdfRuns times with sift and as many with
// pdftotext, alternately, and returns the pages sift read (0 when it read
// none) and the median time of each; ok is false when pdftotext failed.
func timeBoth(sift func() (int, time.Duration, bool), poppler func(pages int) (time.Duration, bool)) (pages int, siftTook, popplerTook time.Duration, ok bool) {
	var st, pt []time.Duration
	for range pdfRuns {
		n, took, read := sift()
		if !read {
			return 0, 0, 0, false
		}
		ptook, pok := poppler(n)
		if !pok {
			return n, 0, 0, false
		}
		pages, st, pt = n, append(st, took), append(pt, ptook)
	}
	slices.Sort(st)
	slices.Sort(pt)
	return pages, st[pdfRuns/2], pt[pdfRuns/2], true
}

// timePdftotext runs pdftotext on the first pages of file (as many as
// sift read), its text to a pipe, and reports how long it took and
// whether it read the file.
func timePdftotext(bin, file string, pages int) (time.Duration, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-l", strconv.Itoa(pages), file, "-")
	cmd.Stdout = io.Discard
	start := time.Now()
	err := cmd.Run()
	return time.Since(start), err == nil
}

// skipBench skips b with a line saying why, which go test prints only
// with -v otherwise.
func skipBench(b *testing.B, why string) {
	b.Helper()
	fmt.Printf("%s skipped: %s\n", b.Name(), why)
	b.Skip(why)
}
