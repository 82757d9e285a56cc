package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/siftd/sift/internal/testkit/testwait"
)

// TestStopDuringStartUp: a SIGTERM to sift and its plugins while sift is
// still starting them (as systemd stops a unit, or Ctrl-C a terminal's
// process group) exits 0 and says so, not 1 with a "Cannot start
// extractor" for every plugin the signal killed.
func TestStopDuringStartUp(t *testing.T) {
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.hcl")
	body := fmt.Sprintf("listen = %q\ndata_dir = %q\nextractor \"html\" {\n  pool = 1\n}\n%s", addr, dir, testCaller)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	cmd := exec.Command(siftBin, "serve", "--config", cfg)
	cmd.Stderr = logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	// The first plugin process is up: sift is starting its pools.
	// Any of its threads may have started it.
	children := fmt.Sprintf("/proc/%d/task/*/children", cmd.Process.Pid)
	testwait.For(t, "sift to start its first plugin", func() bool {
		files, _ := filepath.Glob(children)
		for _, f := range files {
			if b, _ := os.ReadFile(f); len(strings.TrimSpace(string(b))) > 0 {
				return true
			}
		}
		return false
	})
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var err error
	testwait.For(t, "sift to exit", func() bool {
		select {
		case err = <-exited:
			return true
		default:
			return false
		}
	})
	out := logs.String()
	if err != nil || strings.Contains(out, "Cannot start extractor") {
		t.Fatalf("exit %v:\n%s", err, out)
	}
	if !strings.Contains(out, "sift listening") && !strings.Contains(out, "start-up interrupted by a signal: stopping") {
		t.Errorf("stopped during start-up without saying so:\n%s", out)
	}
}
