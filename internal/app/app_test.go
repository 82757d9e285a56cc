package app

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/config"
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

func validate(t *testing.T, src []byte) string {
	t.Helper()
	cfg, diags := config.Parse(src, "config.hcl")
	diags = append(diags, Check(context.Background(), cfg)...)
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
