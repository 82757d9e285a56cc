package host

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// limitMemory caps the data segment (heap and anonymous mappings) of the
// plugin process, so a parser that runs away dies alone instead of taking
// the machine's memory. RLIMIT_DATA rather than RLIMIT_AS: the Go runtime
// reserves far more address space than it uses.
func limitMemory(pid int, bytes int64) error {
	lim := &unix.Rlimit{Cur: uint64(bytes), Max: uint64(bytes)}
	return unix.Prlimit(pid, unix.RLIMIT_DATA, lim, nil)
}

// dieWithParent makes the kernel kill the plugin when sift dies, however
// it dies: a SIGKILLed sift must not leave its plugins running. (The signal
// follows the OS thread that started the child; the Go runtime keeps its
// threads, so in practice that is the process.)
func dieWithParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
