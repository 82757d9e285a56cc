//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// detach makes cmd outlive this process: a session of its own, so a signal
// to this process group (a shell's ^C, a harness killing a timed-out run)
// does not reach it, and no inherited stdio, which would hold a caller's
// pipes open.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
