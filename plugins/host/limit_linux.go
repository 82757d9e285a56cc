package host

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
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

// processPeak is a process's peak resident memory (VmHWM), or 0.
func processPeak(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kib << 10
		}
	}
	return 0
}
