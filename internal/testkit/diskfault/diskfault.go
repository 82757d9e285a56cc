//go:build linux

// Package diskfault gives a test a real disk fault under a directory: a
// small tmpfs it fills until the kernel answers ENOSPC, or an ext4 image
// that the kernel's own error path turns read-only under files held open
// (errors=remount-ro, triggered through sysfs), as a failing disk does.
// Both mount file systems, which takes root; where this process may not
// mount, Small and Breakable report ErrCannotMount and the test falls back
// (LimitFileSize for a child process) or stops (testenv.Missing).
package diskfault

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// ErrCannotMount is returned where this process may not mount a file
// system (not root, or a container without the capability).
var ErrCannotMount = errors.New("diskfault: cannot mount a file system here (needs root)")

// Disk is a file system of its own mounted at Dir.
type Disk struct {
	Dir string
	// dev is the ext4 image's block device name (loop0), for Break.
	dev    string
	filler string
}

// Small mounts a tmpfs of size bytes at a new temporary directory, unmounted
// when the test ends (after what the test started later has stopped).
func Small(t testing.TB, size int64) (*Disk, error) {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil, ErrCannotMount
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d,mode=0700", size), "tmpfs", dir).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%w: %v: %s", ErrCannotMount, err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	return &Disk{Dir: dir}, nil
}

// Breakable mounts a 32 MiB ext4 image at a new temporary directory with
// errors=remount-ro, so that Break makes it read-only as a disk error
// would: files open for writing stay open, and every write fails EROFS.
func Breakable(t testing.TB) (*Disk, error) {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil, ErrCannotMount
	}
	if _, err := exec.LookPath("mkfs.ext4"); err != nil {
		return nil, fmt.Errorf("%w: mkfs.ext4 is missing (apt-get install e2fsprogs)", ErrCannotMount)
	}
	img := filepath.Join(t.TempDir(), "disk.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		return nil, err
	}
	if err := os.Truncate(img, 32<<20); err != nil {
		return nil, err
	}
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", img).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("diskfault: mkfs.ext4: %v: %s", err, out)
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-o", "loop,errors=remount-ro", img, dir).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%w: %v: %s", ErrCannotMount, err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	src, err := exec.Command("findmnt", "-n", "-o", "SOURCE", dir).Output()
	if err != nil {
		return nil, fmt.Errorf("diskfault: findmnt: %w", err)
	}
	d := &Disk{Dir: dir, dev: filepath.Base(strings.TrimSpace(string(src)))}
	if _, err := os.Stat(d.trigger()); err != nil {
		return nil, fmt.Errorf("%w: this kernel has no %s", ErrCannotMount, d.trigger())
	}
	return d, nil
}

func (d *Disk) trigger() string { return filepath.Join("/sys/fs/ext4", d.dev, "trigger_fs_error") }

// Break makes a Breakable disk read-only, as the kernel does on a disk
// error; it stays so until unmounted.
func (d *Disk) Break(t testing.TB) {
	t.Helper()
	if err := os.WriteFile(d.trigger(), []byte("1"), 0); err != nil {
		t.Fatalf("diskfault: break %s: %v", d.Dir, err)
	}
}

// Fill writes a file under Dir until the file system is full.
func (d *Disk) Fill(t testing.TB) {
	t.Helper()
	d.filler = filepath.Join(d.Dir, "filler")
	f, err := os.OpenFile(d.filler, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatalf("diskfault: fill: %v", err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for size := len(chunk); size > 0; {
		if _, err := f.Write(chunk[:size]); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("diskfault: fill: %v", err)
			}
			size /= 2 // the last bytes, to the block
		}
	}
}

// Free removes what Fill wrote.
func (d *Disk) Free(t testing.TB) {
	t.Helper()
	if err := os.Remove(d.filler); err != nil {
		t.Fatalf("diskfault: free: %v", err)
	}
}

// LimitFileSize holds the process pid to files of at most n bytes
// (RLIMIT_FSIZE): a write past it fails EFBIG (Go ignores SIGXFSZ), which
// a process sees as a full disk. It needs no privilege over a process of
// the same user, so it stands in for Small where mounting is not allowed.
func LimitFileSize(pid int, n int64) error {
	lim := unix.Rlimit{Cur: uint64(n), Max: uint64(n)}
	if err := unix.Prlimit(pid, unix.RLIMIT_FSIZE, &lim, nil); err != nil {
		return fmt.Errorf("diskfault: limit file size of %d: %w", pid, err)
	}
	return nil
}
