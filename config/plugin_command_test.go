package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginCommandResolvedBesideTheFile: a relative command names a binary
// beside the configuration file, whatever the working directory, and the
// hash is kept in lower case, so an upper-case one is the same pin.
func TestPluginCommandResolvedBesideTheFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "conf", "sift.hcl")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	hash := strings.Repeat("AB", 32)
	src := `
extractor "a" {
  command = ["plugins/sift-a", "--flag"]
  sha256  = "` + hash + `"
}
extractor "b" {
  command = ["sift-b"]
  sha256  = "` + hash + `"
}
extractor "c" {
  command = ["/opt/sift-c"]
  sha256  = "` + hash + `"
}`
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // not the file's folder
	cfg, diags := LoadFile(filepath.Join("conf", "sift.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := map[string][]string{
		"a": {filepath.Join(dir, "conf", "plugins", "sift-a"), "--flag"},
		"b": {filepath.Join(dir, "conf", "sift-b")},
		"c": {"/opt/sift-c"},
	}
	for _, p := range cfg.Extractors {
		if strings.Join(p.Command, " ") != strings.Join(want[p.Name], " ") {
			t.Errorf("%s: command %q, want %q", p.Name, p.Command, want[p.Name])
		}
		if p.SHA256 != strings.ToLower(hash) {
			t.Errorf("%s: sha256 %q, want it in lower case", p.Name, p.SHA256)
		}
	}
}
