//go:build !linux

package host

// limitMemory is a no-op where prlimit does not exist; the plugin still
// sets a soft limit on its own heap.
func limitMemory(int, int64) error { return nil }
