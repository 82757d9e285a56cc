package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
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

// TestDevOverrideWarningIsAJSONRecord: serve logs JSON, and the override's
// warning is one record of that log with its facts as fields, not a line
// of text beside it.
func TestDevOverrideWarningIsAJSONRecord(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "sift-csv-dev")
	if err := os.WriteFile(bin, []byte("not a plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvDevOverrides, "csv="+bin)
	cfg, diags := config.Parse([]byte(`extractor "csv" {
  command = ["/usr/lib/sift/sift-csv"]
  sha256  = "`+strings.Repeat("0", 64)+`"
}`), "config.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var log bytes.Buffer
	a, _ := Load(t.Context(), cfg, Options{Logger: slog.New(slog.NewJSONHandler(&log, nil)), PluginStderr: io.Discard})
	if a != nil {
		_ = a.Close(t.Context())
	}
	var found bool
	for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		if msg, _ := rec["msg"].(string); strings.Contains(msg, "DEVELOPMENT OVERRIDE") {
			found = true
			if rec["level"] != "WARN" || rec["plugin"] != "csv" || rec["binary"] != bin || rec["configured_command"] != "/usr/lib/sift/sift-csv" {
				t.Errorf("override record %v: want level WARN and the plugin, binary and configured command as fields", rec)
			}
		}
	}
	if !found {
		t.Errorf("no DEVELOPMENT OVERRIDE record in the JSON log:\n%s", log.String())
	}
}
