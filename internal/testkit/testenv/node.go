package testenv

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// npmInstallTimeout bounds one npm install; the LLM engine's packages take
// a minute or more on a busy 2-core machine with a cold npm cache.
const npmInstallTimeout = 10 * time.Minute

// NodeProject installs the node project in fsys (a package.json and the
// scripts beside it) from the npm registry and returns the directory it
// lives in; npmArgs are added to `npm install`. It stops t (see Missing)
// where node or npm is missing.
//
// The install is cached under the user's cache directory, keyed by fsys's
// content and npmArgs: test binaries and later runs reuse it, and
// concurrent first installs each build their own copy and keep whichever
// lands first.
func NodeProject(t testing.TB, fsys fs.FS, npmArgs ...string) string {
	t.Helper()
	NeedNode(t)
	sum, err := contentHash(fsys, npmArgs)
	if err != nil {
		t.Fatalf("testenv: hash the node project: %v", err)
	}
	root, err := cacheRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "node-"+sum[:16])
	if installed(dir) {
		return dir
	}
	tmp, err := os.MkdirTemp(root, ".install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp) // gone by then unless the rename lost a race
	if err := os.CopyFS(tmp, fsys); err != nil {
		t.Fatalf("testenv: copy the node project: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), npmInstallTimeout)
	defer cancel()
	args := append([]string{"install", "--no-audit", "--no-fund", "--loglevel=error"}, npmArgs...)
	install := exec.CommandContext(ctx, "npm", args...)
	install.Dir = tmp
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("testenv: npm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if err := os.Rename(tmp, dir); err != nil && !installed(dir) {
		t.Fatalf("testenv: keep the node project: %v", err)
	}
	return dir
}

// installed reports whether dir holds a finished install: a directory is
// renamed into place only once npm has succeeded.
func installed(dir string) bool {
	_, err := os.Stat(dir)
	return err == nil
}

// cacheRoot is where installed node projects are kept between runs.
func cacheRoot() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	root := filepath.Join(base, "sift-testenv")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("testenv: make the cache directory: %w", err)
	}
	return root, nil
}

// contentHash is the SHA-256 of the npm arguments and of every file's
// path and bytes, in walk order.
func contentHash(fsys fs.FS, npmArgs []string) (string, error) {
	h := sha256.New()
	h.Write([]byte(strings.Join(npmArgs, "\x00") + "\x00\x00"))
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, path)
		if err != nil {
			return err
		}
		h.Write([]byte(path + "\x00"))
		h.Write(data)
		h.Write([]byte{0})
		return nil
	})
	return hex.EncodeToString(h.Sum(nil)), err
}
