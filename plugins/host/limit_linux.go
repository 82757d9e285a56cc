package host

import "golang.org/x/sys/unix"

// limitMemory caps the data segment (heap and anonymous mappings) of the
// plugin process, so a parser that runs away dies alone instead of taking
// the machine's memory. RLIMIT_DATA rather than RLIMIT_AS: the Go runtime
// reserves far more address space than it uses.
func limitMemory(pid int, bytes int64) error {
	lim := &unix.Rlimit{Cur: uint64(bytes), Max: uint64(bytes)}
	return unix.Prlimit(pid, unix.RLIMIT_DATA, lim, nil)
}
