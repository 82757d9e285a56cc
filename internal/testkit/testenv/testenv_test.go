package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// recorder is a testing.TB that notes Skip and Fatal instead of stopping.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()               {}
func (r *recorder) Skip(args ...any)      { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatal(args ...any)     { r.failed = fmt.Sprint(args...) }
func (r *recorder) Fatalf(string, ...any) { r.failed = "fatalf" }

func TestMissingSkipsOrFailsUnderStrict(t *testing.T) {
	t.Setenv(SkipsEnv, "") // a recorder's skips are no skips of make test
	tests := []struct {
		strict        string
		skipped, fail string
	}{
		{"", "needs initdb: apt-get install postgresql", ""},
		{"0", "needs initdb: apt-get install postgresql", ""},
		{"1", "", "needs initdb: apt-get install postgresql (SIFT_TEST_STRICT=1)"},
	}
	for _, tt := range tests {
		t.Setenv(StrictEnv, tt.strict)
		r := &recorder{TB: t}
		Missing(r, "initdb", "apt-get install postgresql")
		if r.skipped != tt.skipped || r.failed != tt.fail {
			t.Errorf("%s=%q: skipped %q, failed %q", StrictEnv, tt.strict, r.skipped, r.failed)
		}
	}
}

// TestSkipsAreNoted: each skip is a line of the SkipsEnv file, which make
// test prints, since go test hides a passing package's skips.
func TestSkipsAreNoted(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "skips")
	t.Setenv(SkipsEnv, notes)
	t.Setenv(StrictEnv, "")
	for range 2 {
		Missing(&recorder{TB: t}, "initdb", "apt-get install postgresql")
	}
	got, err := os.ReadFile(notes)
	want := strings.Repeat(t.Name()+": needs initdb: apt-get install postgresql\n", 2)
	if err != nil || string(got) != want {
		t.Fatalf("notes %q (%v), want %q", got, err, want)
	}
}

func TestNeedCommand(t *testing.T) {
	t.Setenv(SkipsEnv, "")
	t.Setenv(StrictEnv, "")
	r := &recorder{TB: t}
	NeedCommand(r, "sift-no-such-tool", "apt-get install sift-no-such-tool")
	if r.skipped != "needs sift-no-such-tool: apt-get install sift-no-such-tool" {
		t.Errorf("missing tool: skipped %q", r.skipped)
	}
	r = &recorder{TB: t}
	NeedCommand(r, "go", "install Go")
	if r.skipped != "" || r.failed != "" {
		t.Errorf("go is on PATH, yet: skipped %q, failed %q", r.skipped, r.failed)
	}
}

// TestNodeProjectReusesItsInstall: a second call for the same files finds
// the first install instead of running npm again.
func TestNodeProjectReusesItsInstall(t *testing.T) {
	NeedNode(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	project := fstest.MapFS{"package.json": {Data: []byte(`{"name":"sift-testenv-empty","private":true}`)}}
	first := NodeProject(t, project)
	if _, err := os.Stat(filepath.Join(first, "package.json")); err != nil {
		t.Fatal(err)
	}
	// node and npm that always fail: only the cached install can answer.
	bin := t.TempDir()
	for _, tool := range []string{"node", "npm"} {
		if err := os.WriteFile(filepath.Join(bin, tool), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	r := &recorder{TB: t}
	if second := NodeProject(r, project); second != first || r.failed != "" {
		t.Fatalf("second call: %q (first %q), failed %q, skipped %q", second, first, r.failed, r.skipped)
	}
}

func TestShippedBlock(t *testing.T) {
	got := ShippedBlock(t, "extractor", "pdf")
	if !strings.HasPrefix(strings.TrimSpace(got), `extractor "pdf" {`) || !strings.Contains(got, "max_pages") {
		t.Errorf("the shipped pdf block:\n%s", got)
	}
}
