package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/config"
)

// TestDevOverride: a named local binary replaces an external plugin's
// command and pin, with a warning; a bad entry is an error naming it.
func TestDevOverride(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "sift-csv-dev")
	if err := os.WriteFile(bin, []byte("a build in progress"), 0o755); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("a build in progress"))
	parse := func() *config.Config {
		cfg, diags := config.Parse([]byte(`extractor "csv" {
  command = ["/usr/lib/sift/sift-csv", "--quiet"]
  sha256  = "`+strings.Repeat("0", 64)+`"
}`), "config.hcl")
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return cfg
	}
	cfg := parse()
	var log bytes.Buffer
	if diags := devOverrides("csv="+bin, cfg, slog.New(slog.NewTextHandler(&log, nil))); diags.HasErrors() {
		t.Fatal(diags)
	}
	b := cfg.Extractors[0]
	if strings.Join(b.Command, " ") != bin+" --quiet" || b.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("overridden block: command %q, sha256 %s", b.Command, b.SHA256)
	}
	if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), "DEVELOPMENT OVERRIDE") || !strings.Contains(log.String(), bin) {
		t.Errorf("the override was not logged loudly: %s", log.String())
	}
	for value, want := range map[string]string{
		"html=" + bin:         `no external extractor or digester block is named "html"`,
		"csv=sift-csv":        "want NAME=/absolute/path",
		"csv=" + bin + "-nil": "no such file",
	} {
		if diags := devOverrides(value, parse(), slog.New(slog.NewTextHandler(&log, nil))); !strings.Contains(diags.Error(), want) {
			t.Errorf("%s: %v, want %q", value, diags, want)
		}
	}
}
