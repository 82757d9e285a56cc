//go:build !unix

package store

// freeBytes cannot read free space here: min_free does not apply.
func freeBytes(string) (int64, bool) { return 0, false }
