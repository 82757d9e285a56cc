// Package testenv lets a test say what it needs from the machine beyond Go:
// a program (PostgreSQL, node, npm, ip, unshare, protoc), root, or a node
// project installed from the npm registry.
//
// The suite runs in two tiers with one command. On a machine with Go alone
// a test whose tool is missing skips with one line saying what is missing
// and how to get it. With SIFT_TEST_STRICT=1 (set by .ci/run, which
// installs every tool first) the same line fails the test instead, so a
// full run cannot pass by skipping.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// StrictEnv is the environment variable that turns missing tools into
// failures.
const StrictEnv = "SIFT_TEST_STRICT"

// Strict reports whether a missing tool fails the test instead of skipping it.
func Strict() bool { return os.Getenv(StrictEnv) == "1" }

// SkipsEnv names a file each skip is also written to, one line each:
// `go test` shows a passing package's skips only with -v, so make test
// collects them there and prints them at the end.
const SkipsEnv = "SIFT_TEST_SKIPS"

// Missing stops t because the machine lacks what: it skips with
// "needs WHAT: HOW", or fails with that line under SIFT_TEST_STRICT=1.
func Missing(t testing.TB, what, how string) {
	t.Helper()
	msg := "needs " + what + ": " + how
	if Strict() {
		t.Fatal(msg + " (" + StrictEnv + "=1)")
		return
	}
	noteSkip(t.Name() + ": " + msg)
	t.Skip(msg)
}

// noteSkip appends line to the SkipsEnv file, when one is named.
func noteSkip(line string) {
	path := os.Getenv(SkipsEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return // a note of a skip is no reason to fail the test
	}
	defer f.Close()
	_, _ = f.WriteString(line + "\n") // one write, so lines of parallel tests never interleave
}

// NeedCommand stops t (see Missing) unless name is on PATH; how says how
// to install it, e.g. "apt-get install nodejs".
func NeedCommand(t testing.TB, name, how string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		Missing(t, name, how)
	}
}

// NeedNode stops t (see Missing) unless node and npm are on PATH.
func NeedNode(t testing.TB) {
	t.Helper()
	NeedCommand(t, "node", "apt-get install nodejs")
	NeedCommand(t, "npm", "apt-get install npm")
}
