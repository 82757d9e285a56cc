package tokens

import (
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCountExact(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"The quick brown fox jumps over the lazy dog.", 10},
		{"\xff\xfe not utf-8", 5},
	}
	for _, tt := range tests {
		if got := Count(tt.text); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

// TestCountSampledAgreesWithExact measures the sampled count of real web
// pages longer than ExactLimit (testdata, see its README) against their
// exact count.
func TestCountSampledAgreesWithExact(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("testdata", "*.html.gz"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("test pages missing: %v", err)
	}
	var sumErr, maxErr float64
	n := 0
	for _, p := range pages {
		page := readGzip(t, p)
		if len(page) <= ExactLimit {
			continue
		}
		exactCount := exact(page)
		rel := math.Abs(float64(Count(page)-exactCount)) / float64(exactCount)
		sumErr += rel
		maxErr = max(maxErr, rel)
		n++
		if rel > 0.15 {
			t.Errorf("%s: sampled count off by %.0f%%", filepath.Base(p), rel*100)
		}
		if n == 60 {
			break
		}
	}
	if n < 10 {
		t.Fatalf("only %d pages longer than %d bytes", n, ExactLimit)
	}
	mean := sumErr / float64(n)
	t.Logf("sampled vs exact over %d pages: mean error %.1f%%, worst %.1f%%", n, mean*100, maxErr*100)
	if mean > 0.05 {
		t.Errorf("mean error %.1f%%, want under 5%%", mean*100)
	}
}

// TestEstimateAgreesWithExact measures Estimate, which samples a quarter
// as much as Count, against the exact count of the same pages, and holds
// EstimateBytes to Estimate.
func TestEstimateAgreesWithExact(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("testdata", "*.html.gz"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("test pages missing: %v", err)
	}
	var sumErr, maxErr float64
	for _, p := range pages {
		page := readGzip(t, p)
		exactCount, est := exact(page), Estimate(page)
		if b := EstimateBytes([]byte(page)); b != est {
			t.Errorf("%s: EstimateBytes %d, Estimate %d", filepath.Base(p), b, est)
		}
		rel := math.Abs(float64(est-exactCount)) / float64(exactCount)
		sumErr += rel
		maxErr = max(maxErr, rel)
		if rel > 0.15 {
			t.Errorf("%s: estimate off by %.0f%%", filepath.Base(p), rel*100)
		}
	}
	mean := sumErr / float64(len(pages))
	t.Logf("estimate vs exact over %d pages: mean error %.1f%%, worst %.1f%%", len(pages), mean*100, maxErr*100)
	if mean > 0.05 {
		t.Errorf("mean error %.1f%%, want under 5%%", mean*100)
	}
	for _, short := range []string{"", "hello world", strings.Repeat("word ", EstimateExact/5)} {
		if Estimate(short) != exact(short) {
			t.Errorf("a text within EstimateExact (%d bytes) was not counted exactly", len(short))
		}
	}
}

func TestRuneAlignedNeverSplitsARune(t *testing.T) {
	s := strings.Repeat("é€😀", 100)
	for off := 0; off < 40; off++ {
		w := runeAligned(s, off, 17)
		if !strings.HasPrefix(s[strings.Index(s, w):], w) || !isValid(w) {
			t.Fatalf("window at %d split a rune: %q", off, w)
		}
	}
}

func isValid(s string) bool { return strings.ToValidUTF8(s, "") == s }

func readGzip(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func BenchmarkCount(b *testing.B) {
	page := strings.Repeat("<p>An ordinary paragraph of English prose, with a link.</p>\n", 4000)
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		Count(page)
	}
}

// BenchmarkEstimate: a 38 KB page (the throughput benchmark's size) with
// Count and with Estimate, in one run.
func BenchmarkEstimate(b *testing.B) {
	page := strings.Repeat("<p>An ordinary paragraph of English prose, with a link.</p>\n", 640)
	Count("the codec is built once, before either is timed")
	for _, f := range []struct {
		name  string
		count func(string) int
	}{{"Count", Count}, {"Estimate", Estimate}} {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				f.count(page)
			}
		})
	}
}
