package app

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/testkit/testenv"
)

var update = flag.Bool("update", false, "rewrite the expected diagnostics in testdata")

const separator = "\n----------\n"

// TestValidateGolden runs `sift validate`'s checks on each
// testdata/validate/*.hcltest: the HCL, a separator line, then the
// diagnostics expected, exactly as printed.
func TestValidateGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/validate/*.hcltest")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	// The goldens are those of a machine without tesseract, whichever
	// this is: the ocr extractor's warning of the missing engine is in
	// them (TestValidateWithOCREngine checks the other case).
	hideTesseract(t)
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".hcltest"), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			src, want, ok := strings.Cut(string(raw), separator)
			if !ok {
				t.Fatalf("%s: no %q separator", path, strings.TrimSpace(separator))
			}
			got := validate(t, []byte(src))
			if *update {
				if err := os.WriteFile(path, []byte(src+separator+got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != want {
				t.Errorf("diagnostics differ\n--- got\n%s\n--- want\n%s", got, want)
			}
		})
	}
}

// hideTesseract takes the directories holding tesseract off PATH for the
// test.
func hideTesseract(t *testing.T) {
	t.Helper()
	var keep []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "tesseract")); err != nil {
			keep = append(keep, dir)
		}
	}
	t.Setenv("PATH", strings.Join(keep, string(filepath.ListSeparator)))
}

// TestValidateWithOCREngine: where tesseract is installed, validate warns
// of no missing engine; without it, the warning names the package.
func TestValidateWithOCREngine(t *testing.T) {
	const src = "extractor \"ocr\" {\n  languages = [\"eng\"]\n}\n"
	t.Run("missing", func(t *testing.T) {
		hideTesseract(t)
		if got := validate(t, []byte(src)); !strings.Contains(got, `Warning: extractor "ocr": OCR engine missing`) || !strings.Contains(got, "install Debian's tesseract-ocr") {
			t.Errorf("without tesseract:\n%s", got)
		}
	})
	t.Run("installed", func(t *testing.T) {
		testenv.NeedCommand(t, "tesseract", "apt-get install tesseract-ocr tesseract-ocr-eng")
		if got := validate(t, []byte(src)); strings.Contains(got, "OCR engine") {
			t.Errorf("with tesseract:\n%s", got)
		}
		if got := validate(t, []byte("extractor \"ocr\" {\n  languages = [\"xxx\"]\n}\n")); !strings.Contains(got, `Error: extractor "ocr": OCR language not installed`) ||
			!strings.Contains(got, "tesseract-ocr-xxx") {
			t.Errorf("a language not installed:\n%s", got)
		}
	})
}

func validate(t *testing.T, src []byte) string {
	t.Helper()
	cfg, diags := config.Parse(src, "config.hcl")
	// The file's own checks: the environment's (variables, a process per
	// extractor block) are cmd/sift's TestValidateChecksTheEnvironment,
	// with the real binary to re-execute.
	diags = append(diags, CheckFile(context.Background(), cfg)...)
	var buf bytes.Buffer
	if err := WriteDiagnostics(&buf, cfg, diags); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestShippedConfigIsValid(t *testing.T) {
	if got := validate(t, config.Default); got != "" {
		t.Fatalf("the shipped config.hcl has problems:\n%s", got)
	}
}

// TestLoadRefusesChainsThatCannotServe holds serve to what validate says:
// a chain validate refuses never starts.
func TestLoadRefusesChainsThatCannotServe(t *testing.T) {
	for _, name := range []string{"guard-alone", "guard-fetch", "empty-pipeline", "list-types", "context-before-digest", "chain", "media-types"} {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata/validate", name+".hcltest"))
			if err != nil {
				t.Fatal(err)
			}
			src, _, _ := strings.Cut(string(raw), separator)
			src += fmt.Sprintf("\ndata_dir = %q\n", t.TempDir())
			cfg, diags := config.Parse([]byte(src), "config.hcl")
			if !diags.HasErrors() {
				a, ds := Load(context.Background(), cfg, Options{Logger: slog.New(slog.DiscardHandler)})
				diags = append(diags, ds...)
				if a != nil {
					_ = a.Close(context.Background())
				}
			}
			if !diags.HasErrors() {
				t.Fatal("Load started a chain validate refuses")
			}
		})
	}
}
