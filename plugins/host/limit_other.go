//go:build !linux

package host

import "os/exec"

// limitMemory is a no-op where prlimit does not exist; the plugin still
// sets a soft limit on its own heap.
func limitMemory(int, int64) error { return nil }

// dieWithParent has no portable form; the plugin notices sift's death when
// its connection closes.
func dieWithParent(*exec.Cmd) {}

// processPeak cannot read a process's memory here.
func processPeak(int) int64 { return 0 }
