//go:build !linux

package ocr

import (
	"os"
	"os/exec"
)

// isolation has no portable form: tesseract runs with the machine's
// network, and still reads only the PGM on its stdin.
type isolation struct{}

func probeIsolation(string) isolation { return isolation{} }

func (isolation) networked() bool { return true }

func (isolation) apply(*exec.Cmd) {}

// limitMemory is a no-op where prlimit does not exist.
func limitMemory(int, int64) error { return nil }

// tryLock opens the file at path: without flock only a process's own
// bound holds.
func tryLock(path string) (*os.File, bool) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	return f, err == nil
}
