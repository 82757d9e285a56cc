//go:build race

package host

// The race detector maps terabytes of shadow memory, which no RLIMIT_DATA
// admits; race builds of the test plugin run without the memory limit, and
// the memory-limit case runs in the ordinary (non-race) test pass.
const raceEnabled = true
