package host

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// openPinned opens an external plugin's binary and checks the open file
// against the spec's SHA-256. The path is resolved first (a plugin may be
// a symlink, as in a Nix store), then opened without following a symlink,
// so the descriptor returned is the file that was hashed; pinnedCmd runs
// that descriptor, not the path, and a swap in the plugin's directory
// after the hash cannot change what runs.
func openPinned(s *Spec) (*os.File, error) {
	path, err := exec.LookPath(s.Command[0])
	if err != nil {
		return nil, err
	}
	if path, err = filepath.EvalSymlinks(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, fi.Size())); err != nil {
		f.Close()
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, s.SHA256) {
		f.Close()
		return nil, fmt.Errorf("%w: %s has SHA-256 %s, the configuration says %s", ErrPinMismatch, path, got, s.SHA256)
	}
	return f, nil
}

// ErrPinMismatch means an external plugin's binary no longer matches its
// configured SHA-256.
var ErrPinMismatch = errors.New("plugin binary does not match its sha256")
