//go:build unix

package warm

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
)

// Dir returns the directory for warm sockets, creating it: sift-UID under
// $XDG_RUNTIME_DIR, or under the temporary directory. It must be this
// user's and closed to everyone else, since whoever can reach a socket can
// have files read with this user's rights and answers forged.
func Dir() (string, error) {
	base := os.Getenv("XDG_RUNTIME_DIR")
	if base == "" {
		base = os.TempDir()
	}
	dir := filepath.Join(base, fmt.Sprintf("sift-%d", os.Getuid()))
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("warm socket directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("warm socket directory: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 || !ok || int(st.Uid) != os.Getuid() {
		return "", fmt.Errorf("warm socket directory %s is not a directory private to this user (mode 0700)", dir)
	}
	return dir, nil
}

// Listen takes the lock beside path and listens on path, replacing a socket
// file a dead server left. release closes the lock; the listener's Close
// removes the socket. With the lock held elsewhere it returns ErrRunning.
func Listen(path string) (ln net.Listener, release func(), err error) {
	lock, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("warm lock: %w", err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, nil, ErrRunning
		}
		return nil, nil, fmt.Errorf("warm lock: %w", err)
	}
	// Holding the lock, any socket file here is a dead server's.
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		lock.Close()
		return nil, nil, fmt.Errorf("remove stale warm socket: %w", err)
	}
	ln, err = net.Listen("unix", path)
	if err != nil {
		lock.Close()
		return nil, nil, fmt.Errorf("warm socket: %w", err)
	}
	return ln, func() { lock.Close() }, nil
}
