//go:build unix

package host

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
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
	socket := poolSocket(t, h.Pools()[0])
	dir := filepath.Dir(socket)
	fi, err := os.Lstat(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || fi.Mode().Perm() != 0o700 || int(st.Uid) != os.Geteuid() {
		t.Fatalf("socket %s in %s: mode %v, uid %d; want a 0700 directory of uid %d", socket, dir, fi.Mode(), st.Uid, os.Geteuid())
	}
	h.Close()
	if _, err := os.Lstat(dir); err == nil {
		t.Fatalf("%s left behind", dir)
	}
}

// poolSocket is the Unix socket of the pool's one process.
func poolSocket(t *testing.T, pool *Pool) string {
	t.Helper()
	pool.mu.Lock()
	var pr *proc
	for p := range pool.procs {
		pr = p
	}
	pool.mu.Unlock()
	if pr == nil {
		t.Fatal("no plugin process")
	}
	addr, ok := pr.client.ReattachConfig().Addr.(*net.UnixAddr)
	if !ok {
		t.Fatalf("plugin listens on %v, not a Unix socket", pr.client.ReattachConfig().Addr)
	}
	return addr.Name
}

// An operator's own plugin speaks mutual TLS on its socket; a companion,
// which ships with sift as the built-ins do, speaks plain gRPC there: its
// answer to HTTP/2's client preface is a SETTINGS frame, not a TLS alert.
func TestOnlyThirdPartyPluginsSpeakTLS(t *testing.T) {
	for _, companion := range []bool{false, true} {
		spec := testSpec(t, "")
		spec.Pool, spec.Companion = 1, companion
		h := startHost(t, spec)
		addr := poolSocket(t, h.Pools()[0])
		conn, err := net.Dial("unix", addr)
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
		if _, err := conn.Write([]byte("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
		head := make([]byte, 9) // an HTTP/2 frame header: length, type, flags, stream
		_, err = io.ReadFull(conn, head)
		conn.Close()
		plain := err == nil && head[3] == 0x4 // SETTINGS
		if plain != companion {
			t.Errorf("companion %v: plain gRPC %v (header % x, %v)", companion, plain, head, err)
		}
		h.Close()
	}
}
