package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/localuser"
)

// withUmask runs the test under a usual umask, whatever the test runner's.
func withUmask(t *testing.T, mask int) {
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}

// TestSQLiteFilesArePrivate: in a data_dir others can list, the database
// and its -wal and -shm files are 0600 whether sift creates them or finds
// them left looser, and sift warns about the directory.
func TestSQLiteFilesArePrivate(t *testing.T) {
	withUmask(t, 0o022)
	for _, tc := range []struct {
		name string
		left []string // files an older sift left at 0644
	}{
		{"fresh", nil},
		{"left readable", []string{FileName, FileName + "-wal"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Chmod(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.left {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, err := OpenSQLite(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			if err := s.CacheTable(1<<20).Put(context.Background(), "k", []byte("a private page"), time.Now().Add(time.Hour), false); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{FileName, FileName + "-wal", FileName + "-shm"} {
				fi, err := os.Stat(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if perm := fi.Mode().Perm(); perm != 0o600 {
					t.Errorf("%s has mode %#o, want 0600", f, perm)
				}
			}
			if w := strings.Join(s.Warnings(), "\n"); !strings.Contains(w, "other users can list it") {
				t.Errorf("no warning about data_dir at 0755: %q", w)
			}
		})
	}
}

// TestOtherUserCannotReadTheDatabase: another local user reads none of
// sift's files in a data_dir at 0755.
func TestOtherUserCannotReadTheDatabase(t *testing.T) {
	other := localuser.Other(t)
	withUmask(t, 0o022)
	// Not under t.TempDir, whose parent only the test's user may enter.
	dir, err := os.MkdirTemp("", "sift-data-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSQLite(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.CacheTable(1<<20).Put(context.Background(), "k", []byte("a private page"), time.Now().Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	if out, err := other.Run("ls", dir); err != nil || !strings.Contains(string(out), FileName) {
		t.Fatalf("the other user cannot list data_dir, so this test proves nothing: %v %s", err, out)
	}
	for _, f := range []string{FileName, FileName + "-wal", FileName + "-shm"} {
		if out, err := other.Run("cat", filepath.Join(dir, f)); err == nil {
			t.Errorf("another user read %s (%d bytes)", f, len(out))
		}
	}
}

func TestPrivateDataDirHasNoWarning(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSQLite(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if len(s.Warnings()) != 0 {
		t.Errorf("warnings for a private data_dir: %q", s.Warnings())
	}
}
