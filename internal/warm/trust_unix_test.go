//go:build unix

package warm

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/localuser"
)

// mkdir makes dir with exactly mode, whatever the umask.
func mkdir(t *testing.T, dir string, mode os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDirTrustsOnlyItsOwnChain: Dir uses a runtime directory only when
// every directory from the root to the socket's can be changed by no one
// but this user and root, following only symlinks this user or root made;
// otherwise it falls back to the temporary directory, and with that unfit
// too it returns ErrUntrusted.
func TestDirTrustsOnlyItsOwnChain(t *testing.T) {
	sift := "sift-" + strconv.Itoa(os.Geteuid())
	cases := []struct {
		name string
		// runtime builds the runtime directory under root.
		runtime func(t *testing.T, root string) string
		ok      bool
	}{
		{"private", func(t *testing.T, root string) string {
			return mkdir(t, filepath.Join(root, "rt"), 0o700)
		}, true},
		{"readable by others", func(t *testing.T, root string) string {
			return mkdir(t, filepath.Join(root, "rt"), 0o755)
		}, true},
		{"group-writable", func(t *testing.T, root string) string {
			return mkdir(t, filepath.Join(root, "rt"), 0o770)
		}, false},
		{"world-writable, not sticky", func(t *testing.T, root string) string {
			return mkdir(t, filepath.Join(root, "rt"), 0o777)
		}, false},
		{"sticky but this user's", func(t *testing.T, root string) string {
			if os.Geteuid() == 0 {
				t.Skip("running as root, this user's sticky directory is root's")
			}
			return mkdir(t, filepath.Join(root, "rt"), 0o1777)
		}, false},
		{"parent world-writable", func(t *testing.T, root string) string {
			mkdir(t, filepath.Join(root, "open"), 0o777)
			return mkdir(t, filepath.Join(root, "open", "rt"), 0o700)
		}, false},
		{"grandparent group-writable", func(t *testing.T, root string) string {
			mkdir(t, filepath.Join(root, "g"), 0o775)
			mkdir(t, filepath.Join(root, "g", "x"), 0o700)
			return mkdir(t, filepath.Join(root, "g", "x", "rt"), 0o700)
		}, false},
		{"symlink to a private directory", func(t *testing.T, root string) string {
			mkdir(t, filepath.Join(root, "real"), 0o700)
			link := filepath.Join(root, "rt")
			if err := os.Symlink("real", link); err != nil {
				t.Fatal(err)
			}
			return link
		}, true},
		{"symlink into a world-writable directory", func(t *testing.T, root string) string {
			mkdir(t, filepath.Join(root, "open"), 0o777)
			mkdir(t, filepath.Join(root, "open", "rt"), 0o700)
			link := filepath.Join(root, "rt")
			if err := os.Symlink(filepath.Join(root, "open", "rt"), link); err != nil {
				t.Fatal(err)
			}
			return link
		}, false},
		{"symlinked parent inside a world-writable directory", func(t *testing.T, root string) string {
			mkdir(t, filepath.Join(root, "real", "rt"), 0o700)
			mkdir(t, filepath.Join(root, "open"), 0o777)
			if err := os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "open", "p")); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(root, "open", "p", "rt")
		}, false},
		{"sift-UID a symlink", func(t *testing.T, root string) string {
			rt := mkdir(t, filepath.Join(root, "rt"), 0o700)
			mkdir(t, filepath.Join(root, "elsewhere"), 0o700)
			if err := os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(rt, sift)); err != nil {
				t.Fatal(err)
			}
			return rt
		}, false},
		{"sift-UID open to others", func(t *testing.T, root string) string {
			rt := mkdir(t, filepath.Join(root, "rt"), 0o700)
			mkdir(t, filepath.Join(rt, sift), 0o711)
			return rt
		}, false},
		{"another user's runtime directory", func(t *testing.T, root string) string {
			other := localuser.Other(t)
			rt := mkdir(t, filepath.Join(root, "rt"), 0o700)
			if err := os.Chown(rt, int(other.UID), int(other.GID)); err != nil {
				t.Fatal(err)
			}
			return rt
		}, false},
		{"sift-UID another user's", func(t *testing.T, root string) string {
			other := localuser.Other(t)
			rt := mkdir(t, filepath.Join(root, "rt"), 0o700)
			d := mkdir(t, filepath.Join(rt, sift), 0o700)
			if err := os.Chown(d, int(other.UID), int(other.GID)); err != nil {
				t.Fatal(err)
			}
			return rt
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			rt := c.runtime(t, root)
			// The fallback is unfit too, so what Dir returns comes from rt.
			tmp := mkdir(t, filepath.Join(root, "tmp"), 0o777)
			t.Setenv("XDG_RUNTIME_DIR", rt)
			t.Setenv("TMPDIR", tmp)
			dir, err := Dir()
			if !c.ok {
				if !errors.Is(err, ErrUntrusted) {
					t.Fatalf("Dir() = %q, %v; want ErrUntrusted", dir, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want, _ := filepath.EvalSymlinks(rt)
			if dir != filepath.Join(want, sift) {
				t.Fatalf("Dir() = %q, want %q", dir, filepath.Join(want, sift))
			}
			if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
				t.Fatalf("%s: %v %v", dir, fi.Mode(), err)
			}
		})
	}
}

// TestDirFallsBackToTheTemporaryDirectory: an unfit runtime directory (as
// after su or sudo -E) gives way to a private directory Dir makes in the
// temporary directory.
func TestDirFallsBackToTheTemporaryDirectory(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", mkdir(t, filepath.Join(root, "rt"), 0o777))
	tmp := mkdir(t, filepath.Join(root, "tmp"), 0o700)
	t.Setenv("TMPDIR", tmp)
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(tmp, "sift-"+strconv.Itoa(os.Geteuid())); dir != want {
		t.Fatalf("Dir() = %q, want %q", dir, want)
	}
	if _, err := os.Lstat(filepath.Join(root, "rt", "sift-"+strconv.Itoa(os.Geteuid()))); err == nil {
		t.Fatal("a directory was made in the unfit runtime directory")
	}
}

// TestListenRefusesWhatItDidNotMake: Listen serves only in a private
// directory reached without symlinks, and opens its lock without following
// a symlink: a lock planted as a symlink neither creates nor touches its
// target.
func TestListenRefusesWhatItDidNotMake(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", root)
	t.Setenv("TMPDIR", root)
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("symlinked lock", func(t *testing.T) {
		victim := filepath.Join(root, "victim")
		socket := filepath.Join(dir, "a.sock")
		if err := os.Symlink(victim, socket+".lock"); err != nil {
			t.Fatal(err)
		}
		if ln, release, err := Listen(socket); err == nil {
			ln.Close()
			release()
			t.Fatal("Listen took a symlinked lock")
		}
		if _, err := os.Lstat(victim); err == nil {
			t.Fatal("the lock's symlink target was created")
		}
	})
	t.Run("symlinked lock to an existing file", func(t *testing.T) {
		victim := filepath.Join(root, "existing")
		if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		socket := filepath.Join(dir, "b.sock")
		if err := os.Symlink(victim, socket+".lock"); err != nil {
			t.Fatal(err)
		}
		if ln, release, err := Listen(socket); err == nil {
			ln.Close()
			release()
			t.Fatal("Listen took a symlinked lock")
		}
	})
	t.Run("hard-linked lock", func(t *testing.T) {
		victim := filepath.Join(root, "linked")
		if err := os.WriteFile(victim, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		socket := filepath.Join(dir, "c.sock")
		if err := os.Link(victim, socket+".lock"); err != nil {
			t.Fatal(err)
		}
		if ln, release, err := Listen(socket); err == nil {
			ln.Close()
			release()
			t.Fatal("Listen took a hard-linked lock")
		}
	})
	t.Run("directory open to others", func(t *testing.T) {
		open := mkdir(t, filepath.Join(root, "open"), 0o777)
		if ln, release, err := Listen(filepath.Join(open, "d.sock")); !errors.Is(err, ErrUntrusted) {
			if err == nil {
				ln.Close()
				release()
			}
			t.Fatalf("Listen in a world-writable directory: %v", err)
		}
	})
	t.Run("directory through a symlink", func(t *testing.T) {
		link := filepath.Join(root, "link")
		if err := os.Symlink(dir, link); err != nil {
			t.Fatal(err)
		}
		if ln, release, err := Listen(filepath.Join(link, "e.sock")); !errors.Is(err, ErrUntrusted) {
			if err == nil {
				ln.Close()
				release()
			}
			t.Fatalf("Listen through a symlink: %v", err)
		}
	})
	t.Run("a fresh lock is created private", func(t *testing.T) {
		socket := filepath.Join(dir, "f.sock")
		ln, release, err := Listen(socket)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		defer ln.Close()
		fi, err := os.Lstat(socket + ".lock")
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
			t.Fatalf("lock: %v %v", fi, err)
		}
	})
}

// TestDialRefusesASymlinkedSocket: the client connects only to a socket
// that is itself this user's, not a symlink to another.
func TestDialRefusesASymlinkedSocket(t *testing.T) {
	root := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", root)
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", elsewhere)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	link := filepath.Join(dir, "x.sock")
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	if c, err := Dial(link); !errors.Is(err, ErrUntrusted) || !strings.Contains(err.Error(), "not a socket") {
		if err == nil {
			c.Close()
		}
		t.Fatalf("Dial through a symlink: %v", err)
	}
	if c, err := Dial(elsewhere); err != nil {
		t.Fatalf("Dial to a socket of this user's: %v", err)
	} else {
		c.Close()
	}
}
