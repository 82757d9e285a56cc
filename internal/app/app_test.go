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
