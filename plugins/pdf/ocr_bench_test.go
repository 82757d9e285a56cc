package pdf

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/scanpdf"
	"github.com/siftd/sift/plugins/sdk"
)

// scanDPI is the resolution of the benchmark's scans, the issue's.
const scanDPI = 200

// corpusEntry is what BenchmarkOCR reads of a corpus manifest's entry.
type corpusEntry struct {
	File, Category, Expect string
	Pages                  int
	Encrypted              bool
	PopplerOK              bool   `json:"poppler_ok"`
	RefTokens              int    `json:"ref_tokens"`
	RefTextFile            string `json:"ref_text_file"`
}

// benchScans are the documents scanned for BenchmarkOCR: with PDF_BENCH,
// the held-out corpus's first nine (by name) text and multicolumn
// documents of at most four pages with their reference text (the
// original's text layer, by poppler); else two of testdata's, with their
// own text layer as truth.
func benchScans(b *testing.B) (files, truths []string) {
	dir := os.Getenv("PDF_BENCH")
	if dir == "" {
		for _, f := range []string{"pdfjs-bug1997343.pdf", "qpdf-sample-form.pdf"} {
			res, err := extract(&testing.T{}, New().(*Extractor), f, map[string]string{"ocr": "never"})
			if err != nil {
				b.Fatal(err)
			}
			files, truths = append(files, filepath.Join(corpus, f)), append(truths, res.Content)
		}
		return files, truths
	}
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		b.Fatal(err)
	}
	var manifest []corpusEntry
	if err := json.Unmarshal(raw, &manifest); err != nil {
		b.Fatal(err)
	}
	slices.SortFunc(manifest, func(x, y corpusEntry) int { return strings.Compare(x.File, y.File) })
	for _, m := range manifest {
		if len(files) == 9 {
			break
		}
		if m.Expect != "text" || !m.PopplerOK || m.Encrypted || m.Pages < 1 || m.Pages > 4 || m.RefTokens <= 150 ||
			(m.Category != "text" && m.Category != "multicolumn") {
			continue
		}
		ref, err := os.ReadFile(filepath.Join(dir, m.RefTextFile))
		if err != nil {
			b.Fatal(err)
		}
		files, truths = append(files, filepath.Join(dir, m.File)), append(truths, string(ref))
	}
	return files, truths
}

// BenchmarkOCR scans documents (their pages rendered by PDFium at 200
// dpi, as PNG pages for the tesseract CLI and wrapped as an image-only PDF
// for sift), then reads each with the tesseract CLI page by page (as
// installed, and one thread per process as sift runs it) and with the pdf
// extractor, and prints each document's time and word F1 against the
// original's text layer, and the ratios of sift to the CLI. Without
// tesseract it skips. `make bench` runs it.
func BenchmarkOCR(b *testing.B) {
	tess, err := exec.LookPath("tesseract")
	if err != nil {
		b.Skip("needs tesseract: apt-get install tesseract-ocr tesseract-ocr-eng")
	}
	e := New().(*Extractor)
	if diags, err := e.Configure(context.Background(), nil); err != nil || diags.HasErrors() || e.ocr == nil {
		b.Fatalf("configure: %v %v", diags, err)
	}
	files, truths := benchScans(b)
	tmp := b.TempDir()
	for b.Loop() {
		var cliT, cli1T, siftT, cliCPU, siftCPU time.Duration
		var cliF, siftF float64
		errs := 0
		fmt.Printf("%-44s %5s %8s %8s %8s %6s %8s %8s %6s %7s %7s\n", "document", "pages", "cli s", "cli-1t s", "sift s", "ratio", "cli cpu", "sift cpu", "ratio", "F1 cli", "F1 sift")
		for i, f := range files {
			body, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			imgs, err := e.Render(body, scanDPI)
			if err != nil {
				b.Fatalf("%s: %v", f, err)
			}
			scan := scanpdf.Write(imgs, scanDPI)
			pngs := writePNGs(b, tmp, imgs)
			cliText, cli := runCLI(b, tess, pngs, nil)
			cpu0 := childrenCPU()
			_, cli1 := runCLI(b, tess, pngs, []string{"OMP_THREAD_LIMIT=1"})
			cpu1 := childrenCPU()
			start := time.Now()
			res, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: scan, ContentType: "application/pdf"})
			took := time.Since(start)
			cpu2 := childrenCPU()
			got := ""
			if err != nil {
				errs++
				fmt.Printf("%s: %v\n", filepath.Base(f), err)
			} else {
				got = res.Content
			}
			fc, fs := scanpdf.F1(cliText, truths[i]), scanpdf.F1(got, truths[i])
			cc, sc := cpu1-cpu0, cpu2-cpu1
			fmt.Printf("%-44s %5d %8.1f %8.1f %8.1f %6.2f %8.1f %8.1f %6.2f %7.3f %7.3f\n", filepath.Base(f), len(imgs), cli.Seconds(), cli1.Seconds(), took.Seconds(),
				took.Seconds()/cli.Seconds(), cc.Seconds(), sc.Seconds(), sc.Seconds()/cc.Seconds(), fc, fs)
			cliT, cli1T, siftT = cliT+cli, cli1T+cli1, siftT+took
			cliCPU, siftCPU = cliCPU+cc, siftCPU+sc
			cliF, siftF = cliF+fc, siftF+fs
		}
		n := float64(len(files))
		fmt.Printf("%d documents, %d errors: mean F1 sift %.3f, CLI %.3f (ratio %.3f); time sift %.1f s, CLI %.1f s (ratio %.2f), CLI one thread %.1f s (ratio %.2f); tesseract CPU sift %.1f s, CLI one thread %.1f s (ratio %.2f)\n",
			len(files), errs, siftF/n, cliF/n, siftF/cliF, siftT.Seconds(), cliT.Seconds(), siftT.Seconds()/cliT.Seconds(), cli1T.Seconds(), siftT.Seconds()/cli1T.Seconds(),
			siftCPU.Seconds(), cliCPU.Seconds(), siftCPU.Seconds()/cliCPU.Seconds())
	}
}

// childrenCPU is the CPU time (user and system) of this process's
// children that have ended: the tesseract processes, the CLI's and sift's
// (the extractor runs in this process), a measure the machine's other
// load does not stretch as it does the wall clock.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func writePNGs(b *testing.B, dir string, imgs []*image.Gray) []string {
	var paths []string
	for i, img := range imgs {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("page-%d.png", i))
		if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// runCLI reads the pages one after another with tesseract, as a user's
// loop would, with the machine's environment and env added, and returns
// their text and the time taken.
func runCLI(b *testing.B, tess string, pages []string, env []string) (string, time.Duration) {
	var text strings.Builder
	start := time.Now()
	for _, p := range pages {
		cmd := exec.Command(tess, p, "stdout", "--dpi", fmt.Sprint(scanDPI), "-l", "eng")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("tesseract %s: %v", p, err)
		}
		text.Write(out)
		text.WriteString("\n")
	}
	return text.String(), time.Since(start)
}
