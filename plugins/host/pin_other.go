//go:build !linux

package host

import (
	"os"
	"os/exec"
)

// noFollow is not portable; where the path is run anyway, it would not
// make the pin hold.
const noFollow = 0

// pinnedCmd runs bin's path: without /proc there is no portable way to
// execute an open descriptor, so here the pin is checked on the file just
// before the path is run, not on the file that runs.
func pinnedCmd(bin *os.File, args []string) *exec.Cmd {
	return &exec.Cmd{Path: bin.Name(), Args: args}
}
