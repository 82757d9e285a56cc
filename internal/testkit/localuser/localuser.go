// Package localuser lets a test act as another local user, to check what
// sift's files and sockets let that user do. It needs root; elsewhere the
// test is skipped with the reason, or fails under SIFT_TEST_STRICT=1.
package localuser

import (
	"bytes"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// User is a local user other than the one running the test.
type User struct{ UID, GID uint32 }

// uid is far above any account a system creates, so no file already
// belongs to it.
const uid = 64123

// Other returns a user that is neither the test's nor in its groups, or
// skips the test when it cannot act as one (it is not running as root).
func Other(t testing.TB) User {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv("SIFT_TEST_STRICT") == "1" {
			t.Fatal("acting as another local user needs root (SIFT_TEST_STRICT=1)")
		}
		t.Skip("acting as another local user needs root")
	}
	return User{UID: uid, GID: uid}
}

// Run runs name with args as u and returns its combined output and error.
func (u User) Run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: u.UID, Gid: u.GID, Groups: []uint32{}}}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}
