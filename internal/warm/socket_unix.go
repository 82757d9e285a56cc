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
// $XDG_RUNTIME_DIR, or else under the temporary directory. Whoever can
// reach a socket can have files read with this user's rights and answers
// forged, and whoever can change a directory on the way to it can put
// their own socket there; so sift-UID must be this user's alone, and every
// directory above it one that only this user and root can change (see
// openTrusted). A runtime directory that fails (another user's, after su
// or sudo -E) gives way to the temporary directory; when that fails too,
// the error wraps ErrUntrusted.
func Dir() (string, error) {
	name := fmt.Sprintf("sift-%d", os.Geteuid())
	var errs []error
	for _, base := range bases() {
		dir, err := privateDir(base, name)
		if err == nil {
			return dir, nil
		}
		errs = append(errs, err)
	}
	return "", fmt.Errorf("%w: %w", ErrUntrusted, errors.Join(errs...))
}

// bases lists the directories Dir may put sift-UID in, best first.
func bases() []string {
	var list []string
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		list = append(list, rt)
	}
	if tmp := os.TempDir(); len(list) == 0 || filepath.Clean(tmp) != filepath.Clean(list[0]) {
		list = append(list, tmp)
	}
	return list
}

// Listen takes the lock beside path and listens on path, replacing a socket
// file a dead server left. path's directory must pass the checks Dir makes.
// release closes the lock; the listener's Close removes the socket. With
// the lock held elsewhere it returns ErrRunning.
func Listen(path string) (ln net.Listener, release func(), err error) {
	if err := checkSocketDir(filepath.Dir(path)); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrUntrusted, err)
	}
	lock, err := openLock(path + ".lock")
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

// openLock opens the lock file at path, creating it only with O_EXCL, and
// never through a symlink: a lock this user did not make (a symlink to a
// file of someone's choosing, a hard link, a FIFO) is refused.
func openLock(path string) (*os.File, error) {
	for range 3 {
		f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if errors.Is(err, fs.ErrNotExist) {
			f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
			if errors.Is(err, fs.ErrExist) {
				continue // another server made it meanwhile
			}
		}
		if err != nil {
			return nil, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !fi.Mode().IsRegular() || !ok || int(st.Uid) != os.Geteuid() || st.Nlink != 1 {
			f.Close()
			return nil, fmt.Errorf("%s is not a file of this user's own", path)
		}
		return f, nil
	}
	return nil, fmt.Errorf("%s keeps changing", path)
}

// Dial connects to the warm server at path, which must be a socket of this
// user's, not a symlink to one.
func Dial(path string) (net.Conn, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if fi.Mode().Type() != fs.ModeSocket || !ok || int(st.Uid) != os.Geteuid() {
		return nil, fmt.Errorf("%w: %s is not a socket of this user's own", ErrUntrusted, path)
	}
	return net.Dial("unix", path)
}
