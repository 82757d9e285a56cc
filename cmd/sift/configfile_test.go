package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/localuser"
)

// badConfig fails to decode, so a diagnostic about it proves it was read.
const badConfig = "planted = \"by someone\"\n"

// runInDir runs sift extract on a small text in dir, where ./config.hcl is.
func runInDir(t *testing.T, dir string, args ...string) (stderr string, code int) {
	t.Helper()
	cmd := exec.Command(siftBin, append([]string{"extract", "--type", "text/plain"}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader("hello")
	_, stderr, code = runCmd(t, cmd)
	return stderr, code
}

// TestWorkingDirConfigMustBeTheUsers: ./config.hcl is read only when it
// belongs to the user and no one else can write it; otherwise sift refuses
// it, naming --config, which still reads it when asked.
func TestWorkingDirConfigMustBeTheUsers(t *testing.T) {
	tests := []struct {
		name    string
		mode    os.FileMode
		other   bool // owned by another local user
		refused bool
	}{
		{name: "own, private", mode: 0o600},
		{name: "own, readable by others", mode: 0o644},
		{name: "writable by others", mode: 0o666, refused: true},
		{name: "writable by the group", mode: 0o620, refused: true},
		{name: "another user's", mode: 0o644, other: true, refused: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "config.hcl")
			if err := os.WriteFile(path, []byte(badConfig), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tc.mode); err != nil {
				t.Fatal(err)
			}
			if tc.other {
				u := localuser.Other(t)
				if err := os.Chown(path, int(u.UID), int(u.GID)); err != nil {
					t.Fatal(err)
				}
			}
			stderr, code := runInDir(t, dir)
			read := strings.Contains(stderr, "planted")
			switch {
			case tc.refused && (code == 0 || read || !strings.Contains(stderr, "--config")):
				t.Errorf("exit %d, want a refusal naming --config:\n%s", code, stderr)
			case !tc.refused && !read:
				t.Errorf("exit %d, the file was not read:\n%s", code, stderr)
			}
			if stderr, _ := runInDir(t, dir, "--config", "config.hcl"); !strings.Contains(stderr, "planted") {
				t.Errorf("--config config.hcl did not read the file:\n%s", stderr)
			}
		})
	}
	t.Run("symlink", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(t.TempDir(), "elsewhere.hcl")
		if err := os.WriteFile(target, []byte(badConfig), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(dir, "config.hcl")); err != nil {
			t.Fatal(err)
		}
		if stderr, code := runInDir(t, dir); code == 0 || strings.Contains(stderr, "planted") || !strings.Contains(stderr, "--config") {
			t.Errorf("exit %d, want a refusal:\n%s", code, stderr)
		}
	})
}
