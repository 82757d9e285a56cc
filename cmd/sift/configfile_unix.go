//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow opens path for reading, refusing a symlink, and without
// blocking on a FIFO planted in its place.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// owner is the uid that owns the file fi describes.
func owner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
