package host

import (
	"os"
	"os/exec"
	"syscall"
)

// noFollow makes opening a symlink fail.
const noFollow = syscall.O_NOFOLLOW

// pinnedCmd runs the open binary bin with args[1:], argv[0] args[0]. The
// descriptor becomes the child's fd 3 and the child executes
// /proc/self/fd/3: the very file that was hashed. It stays open in the
// plugin, so a script (whose interpreter opens that path again) runs too.
func pinnedCmd(bin *os.File, args []string) *exec.Cmd {
	return &exec.Cmd{Path: "/proc/self/fd/3", Args: args, ExtraFiles: []*os.File{bin}}
}
