//go:build linux

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testenv"
)

// TestReloadWithDataDirFull: when data_dir has no room left, sift serve
// cannot record how a reload ended, and `sift reload` waited its two
// minutes for a record that never came. It now fails at once, before it
// signals sift, saying data_dir is full.
func TestReloadWithDataDirFull(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Missing(t, "root, to mount a small tmpfs as data_dir", "run the test as root (as .ci/run does)")
	}
	dataDir := t.TempDir()
	if err := syscall.Mount("tmpfs", dataDir, "tmpfs", 0, "size=8m"); err != nil {
		testenv.Missing(t, "a tmpfs mount: "+err.Error(), "run the test as root where mount is allowed")
	}
	t.Cleanup(func() { _ = syscall.Unmount(dataDir, syscall.MNT_DETACH) })
	origin := fixturePages(t)
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cfg := filepath.Join(t.TempDir(), "config.hcl")
	if err := os.WriteFile(cfg, []byte(reloadConfig(addr, dataDir, port, "alice", "key-alice", "")), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startSift(t, cfg, addr)
	fill(t, filepath.Join(dataDir, "filler"))
	began := time.Now()
	_, errOut, code := runSift(t, nil, "reload", "--config", cfg, "--pid", strconv.Itoa(s.Process.Pid))
	took := time.Since(began)
	t.Logf("sift reload with data_dir full: exit %d after %s: %s", code, took.Round(time.Millisecond), strings.TrimSpace(errOut))
	if code != 1 || !strings.Contains(errOut, "no space left") || !strings.Contains(errOut, "reload not sent") {
		t.Errorf("exit %d, want 1 saying data_dir is full and nothing was sent:\n%s", code, errOut)
	}
	if took > reloadWait/2 {
		t.Errorf("took %s: it waited for a record sift could not write", took)
	}
	if strings.Contains(s.Logs.String(), "reloading the configuration") {
		t.Errorf("sift was signalled:\n%s", s.Logs.String())
	}
}

// fill writes path until its file system has no room left.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	// Smaller writes take what a 64 KiB one could not.
	for _, err := f.Write(chunk[:1]); err == nil; _, err = f.Write(chunk[:1]) {
	}
}

// TestUnrecordedLoadRemovesTheRecord: a load sift serve cannot record (a
// data_dir filled after sift reload looked) removes the previous record,
// which sift reload would otherwise take for a reload still running.
func TestUnrecordedLoadRemovesTheRecord(t *testing.T) {
	if os.Geteuid() != 0 {
		testenv.Missing(t, "root, to mount a small tmpfs as data_dir", "run the test as root (as .ci/run does)")
	}
	dataDir := t.TempDir()
	if err := syscall.Mount("tmpfs", dataDir, "tmpfs", 0, "size=1m"); err != nil {
		testenv.Missing(t, "a tmpfs mount: "+err.Error(), "run the test as root where mount is allowed")
	}
	t.Cleanup(func() { _ = syscall.Unmount(dataDir, syscall.MNT_DETACH) })
	r := &reloadRecorder{dataDir: dataDir, log: slog.New(slog.DiscardHandler)}
	r.record(true, "")
	if _, err := readReloadStatus(dataDir); err != nil {
		t.Fatal(err)
	}
	fill(t, filepath.Join(dataDir, "filler"))
	r.record(false, strings.Repeat("a refused file's diagnostics\n", 200))
	if st, err := readReloadStatus(dataDir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("after a load it could not record: %+v, %v; want no record", st, err)
	}
}
