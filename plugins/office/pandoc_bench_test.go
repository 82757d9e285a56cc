package office

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/siftd/sift/plugins/sdk"
)

// envBenchDoc, set, makes this test binary extract the file it names and
// exit: BenchmarkPandoc runs it so as a process of its own, whose peak
// memory the kernel counts alone.
const envBenchDoc = "SIFT_OFFICE_BENCH_DOC"

func TestMain(m *testing.M) {
	if path := os.Getenv(envBenchDoc); path != "" {
		os.Exit(extractForBench(path))
	}
	os.Exit(m.Run())
}

func extractForBench(path string) int {
	body, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	e := New()
	if _, err := e.Configure(context.Background(), json.RawMessage(`{"max_rows": 1000000}`)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	res, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: typeDOCX, MaxOutputBytes: 1 << 30})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Print(res.Content)
	return 0
}

// BenchmarkPandoc reads a large DOCX (OFFICE_BENCH_TABLES tables, 10,000
// unless set, each after a paragraph with a link; made by pandoc from
// markdown) to markdown with sift's office reader and with pandoc, each
// as a process of its own, and prints the time and peak memory of both
// and their ratios (the goal: 10 times faster, a tenth of the memory).
// Without pandoc it skips. `make bench` runs it.
func BenchmarkPandoc(b *testing.B) {
	pandoc, err := exec.LookPath("pandoc")
	if err != nil {
		b.Skip("pandoc is not installed (apt-get install pandoc)")
	}
	tables := 10_000
	if n, err := strconv.Atoi(os.Getenv("OFFICE_BENCH_TABLES")); err == nil && n > 0 {
		tables = n
	}
	dir := b.TempDir()
	docx := filepath.Join(dir, "large.docx")
	if err := os.WriteFile(filepath.Join(dir, "large.md"), []byte(largeMarkdown(tables)), 0o600); err != nil {
		b.Fatal(err)
	}
	if out, err := exec.Command(pandoc, filepath.Join(dir, "large.md"), "-o", docx).CombinedOutput(); err != nil {
		b.Fatalf("pandoc makes the document: %v\n%s", err, out)
	}
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sift := measure(b, exec.Command(self), docx)
		pan := measure(b, exec.Command(pandoc, docx, "-t", "gfm"), "")
		fi, _ := os.Stat(docx)
		b.Logf("%d tables, DOCX of %d KiB: sift %v and %d MiB peak, pandoc %v and %d MiB peak: sift is %.1f times faster in %.1f times less memory",
			tables, fi.Size()>>10, sift.took.Round(time.Millisecond), sift.peak>>20, pan.took.Round(time.Millisecond), pan.peak>>20,
			float64(pan.took)/float64(sift.took), float64(pan.peak)/float64(sift.peak))
		b.ReportMetric(float64(pan.took)/float64(sift.took), "x-faster")
		b.ReportMetric(float64(pan.peak)/float64(sift.peak), "x-less-memory")
	}
}

type run struct {
	took time.Duration
	peak int64
}

// measure runs cmd (with envBenchDoc set to doc, when given) and returns
// its wall time and its peak resident memory.
func measure(b *testing.B, cmd *exec.Cmd, doc string) run {
	b.Helper()
	if doc != "" {
		cmd.Env = append(os.Environ(), envBenchDoc+"="+doc)
	}
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v", cmd.Path, err)
	}
	took := time.Since(start)
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	var peak int64
	if ru != nil {
		peak = ru.Maxrss << 10 // KiB on Linux
	}
	return run{took: took, peak: peak}
}

// largeMarkdown is a report of n small tables, each after a paragraph
// with emphasis and a link, under a heading every hundred.
func largeMarkdown(n int) string {
	rng := rand.New(rand.NewSource(1))
	var b strings.Builder
	b.WriteString("# Large report\n\n")
	for i := range n {
		if i%100 == 0 {
			fmt.Fprintf(&b, "## Section %d\n\n", i/100)
		}
		fmt.Fprintf(&b, "Paragraph %d with **bold** text and a [link](https://example.com/%d).\n\n", i, i)
		b.WriteString("| Canal | Flow | Note |\n|---|---:|---|\n")
		for r := range 3 {
			fmt.Fprintf(&b, "| C%d | %d | reading %d-%d |\n", r, rng.Intn(9999), i, r)
		}
		b.WriteString("\n")
	}
	return b.String()
}
