//go:build unix

package store

import "golang.org/x/sys/unix"

// freeBytes is the space on dir's file system that sift may still use
// (what an unprivileged writer may: the blocks reserved for root aside),
// and whether it could be read.
func freeBytes(dir string) (int64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
