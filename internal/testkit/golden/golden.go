// Package golden compares a test's output with a file under testdata and,
// run with -update, rewrites the file instead, so a reviewer reads the
// change as a git diff.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update is the test binary's -update flag. A package that imports golden
// declares no flag of that name itself.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Updating reports whether the test binary runs with -update.
func Updating() bool { return *update }

// Check fails t unless got equals the file at path; with -update it writes
// got to path first (making its directory).
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it); got:\n%s\nwant:\n%s", path, got, want)
	}
}

// Testdata returns the file testdata/name, failing t if it cannot be read.
func Testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
