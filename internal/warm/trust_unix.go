//go:build unix

package warm

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// maxHops bounds the symlinks followed while resolving one directory, as
// the kernel bounds them.
const maxHops = 40

// openTrusted opens the directory at path and returns a descriptor on it
// with the path it resolved to, after checking every directory from the
// root down: each must be one that only this user and root can change. A
// directory anyone else could write lets them swap what lies below it
// between the check and the use; the sticky, root-owned /tmp is the one
// exception, since there no one can rename or remove another's entries.
// A symlink is followed only when this user or root owns it (its
// directory has already passed), and its target is checked the same way.
// Every directory is opened with O_NOFOLLOW relative to the one above, so
// what is checked is what is opened.
func openTrusted(path string) (fd int, resolved string, err error) {
	if !filepath.IsAbs(path) {
		return -1, "", fmt.Errorf("%s is not an absolute path", path)
	}
	rest := components(path)
	fd, err = openRoot()
	if err != nil {
		return -1, "", err
	}
	resolved = "/"
	for hops := 0; len(rest) > 0; {
		name := rest[0]
		rest = rest[1:]
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			target, lerr := trustedLink(fd, name, filepath.Join(resolved, name))
			unix.Close(fd)
			if lerr != nil {
				return -1, "", lerr
			}
			if hops++; hops > maxHops {
				return -1, "", fmt.Errorf("%s: too many symlinks", path)
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(resolved, target)
			}
			rest = components(filepath.Join(append([]string{target}, rest...)...))
			if fd, err = openRoot(); err != nil {
				return -1, "", err
			}
			resolved = "/"
			continue
		}
		unix.Close(fd)
		fd = next
		resolved = filepath.Join(resolved, name)
		if err := checkTrusted(fd, resolved); err != nil {
			unix.Close(fd)
			return -1, "", err
		}
	}
	return fd, resolved, nil
}

func openRoot() (int, error) {
	fd, err := unix.Open("/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("open /: %w", err)
	}
	if err := checkTrusted(fd, "/"); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// components splits a cleaned absolute path into its names.
func components(path string) []string {
	var names []string
	for _, n := range strings.Split(filepath.Clean(path), "/") {
		if n != "" {
			names = append(names, n)
		}
	}
	return names
}

// trustedLink returns the target of the symlink name in the directory dirfd,
// when name is a symlink owned by this user or root; anything else that
// could not be opened as a directory is an error.
func trustedLink(dirfd int, name, path string) (string, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFLNK {
		return "", fmt.Errorf("%s is not a directory", path)
	}
	if !trustedOwner(st.Uid) {
		return "", fmt.Errorf("%s is a symlink owned by uid %d", path, st.Uid)
	}
	buf := make([]byte, unix.PathMax)
	n, err := unix.Readlinkat(dirfd, name, buf)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return string(buf[:n]), nil
}

// checkTrusted checks the open directory fd, found at path: owned by this
// user or root, and writable by no one else unless it is sticky and root's.
func checkTrusted(fd int, path string) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !trustedOwner(st.Uid) {
		return fmt.Errorf("%s belongs to uid %d, neither this user nor root", path, st.Uid)
	}
	if st.Mode&0o022 != 0 && (st.Mode&unix.S_ISVTX == 0 || st.Uid != 0) {
		return fmt.Errorf("%s is writable by other users (mode %04o)", path, st.Mode&0o7777)
	}
	return nil
}

func trustedOwner(uid uint32) bool {
	return uid == 0 || int(uid) == os.Geteuid()
}

// privateDir creates (or finds) the directory name in the trusted
// directory base and checks it is this user's alone: a directory, not a
// symlink, owned by this user, mode 0700.
func privateDir(base, name string) (string, error) {
	fd, resolved, err := openTrusted(base)
	if err != nil {
		return "", err
	}
	defer unix.Close(fd)
	dir := filepath.Join(resolved, name)
	if err := unix.Mkdirat(fd, name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	dfd, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", fmt.Errorf("%s is not a directory private to this user (mode 0700): %w", dir, err)
	}
	defer unix.Close(dfd)
	if err := checkPrivate(dfd, dir); err != nil {
		return "", err
	}
	return dir, nil
}

// checkPrivate checks the open directory fd is this user's alone.
func checkPrivate(fd int, path string) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR || int(st.Uid) != os.Geteuid() || st.Mode&0o7777 != 0o700 {
		return fmt.Errorf("%s is not a directory private to this user (mode 0700; it is %04o, uid %d)", path, st.Mode&0o7777, st.Uid)
	}
	return nil
}

// checkSocketDir checks that dir, the directory a socket is to be served
// in, is reached through trusted directories only, with no symlink on the
// way, and is private to this user.
func checkSocketDir(dir string) error {
	fd, resolved, err := openTrusted(dir)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if resolved != filepath.Clean(dir) {
		return fmt.Errorf("%s goes through a symlink (to %s)", dir, resolved)
	}
	return checkPrivate(fd, dir)
}
