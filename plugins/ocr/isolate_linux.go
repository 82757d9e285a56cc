package ocr

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// isolation is how tesseract is kept off the network: in a network
// namespace of its own (only a loopback, down), made by the kernel as the
// process starts. Root may make one directly; another user needs a user
// namespace around it. Where neither is allowed, tesseract runs without,
// and still reads only the PGM on its stdin (see the package comment).
type isolation struct {
	flags uintptr
}

// probeIsolation finds the namespaces this machine lets sift make, by
// starting tesseract --version in them.
func probeIsolation(path string) isolation {
	for _, flags := range []uintptr{syscall.CLONE_NEWNET, syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := command(ctx, path, "--version")
		iso := isolation{flags: flags}
		iso.apply(cmd)
		err := cmd.Run()
		cancel()
		if err == nil {
			return iso
		}
	}
	return isolation{}
}

// Networked reports whether tesseract would run with the machine's
// network, for want of a namespace.
func (i isolation) networked() bool { return i.flags == 0 }

func (i isolation) apply(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true, Cloneflags: i.flags}
}

// limitMemory caps tesseract's data segment (heap and anonymous
// mappings), at most the plugin's own hard limit, which it inherited.
func limitMemory(pid int, bytes int64) error {
	var own unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_DATA, &own); err == nil && own.Max < uint64(bytes) {
		bytes = int64(own.Max)
	}
	lim := &unix.Rlimit{Cur: uint64(bytes), Max: uint64(bytes)}
	return unix.Prlimit(pid, unix.RLIMIT_DATA, lim, nil)
}

// tryLock locks the file at path without waiting; closing the file
// unlocks it.
func tryLock(path string) (*os.File, bool) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, false
	}
	return f, true
}
