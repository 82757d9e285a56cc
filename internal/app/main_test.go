package app

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMain builds sift-html, the html extractor's own binary, and puts it
// on PATH, where sift looks for it when it is not beside sift's binary
// (here the test binary).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sift-app-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "sift-html"), "../../cmd/sift-html").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build sift-html: %v\n%s", err, out)
		os.Exit(1)
	}
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
