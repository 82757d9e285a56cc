//go:build unix

package host

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestPluginSocketsArePrivate: even under umask 000, a plugin's socket is
// made in a directory of this user's with mode 0700, which the pool
// removes when it closes; so no other local user can reach the plugin.
func TestPluginSocketsArePrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	spec := testSpec(t, "")
	spec.Pool = 1
	h := startHost(t, spec)
	pool := h.Pools()[0]
	pool.mu.Lock()
	var pr *proc
	for p := range pool.procs {
		pr = p
	}
	pool.mu.Unlock()
	if pr == nil {
		t.Fatal("no plugin process")
	}
	rc := pr.client.ReattachConfig()
	addr, ok := rc.Addr.(*net.UnixAddr)
	if !ok {
		t.Fatalf("plugin listens on %v, not a Unix socket", rc.Addr)
	}
	dir := filepath.Dir(addr.Name)
	fi, err := os.Lstat(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 || int(st.Uid) != os.Geteuid() {
		t.Fatalf("socket %s in %s: mode %v, uid %d; want a 0700 directory of uid %d", addr.Name, dir, fi.Mode(), st.Uid, os.Geteuid())
	}
	h.Close()
	if _, err := os.Lstat(dir); err == nil {
		t.Fatalf("%s left behind", dir)
	}
}
