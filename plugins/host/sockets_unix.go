//go:build unix

package host

import (
	"fmt"
	"os"
	"syscall"
)

// shortTempDir is where plugin sockets go when TMPDIR is too long.
const shortTempDir = "/tmp"

// checkOwnDir checks that dir is a directory (not a symlink) of this
// user's with mode 0700.
func checkOwnDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 || !ok || int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s is not private to this user (mode 0700, owned by uid %d)", dir, os.Geteuid())
	}
	return nil
}
