package main

import (
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestReloadCommand is what `systemctl reload` runs (ExecReload): a file
// sift takes exits 0; a file validate refuses exits 1 without a signal
// sent; a file that validates but the running sift refuses (it lost its
// pipeline block) exits 1 with sift's diagnostics, and the metric says the
// last reload failed.
func TestReloadCommand(t *testing.T) {
	origin := fixturePages(t)
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.hcl")
	write := func(src string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(reloadConfig(addr, dir, port, "alice", "key-alice", ""))
	s := startSift(t, cfg, addr)
	pid := strconv.Itoa(s.Process.Pid)
	reload := func() (string, string, int) {
		t.Helper()
		return runSift(t, nil, "reload", "--config", cfg, "--pid", pid)
	}

	write(reloadConfig(addr, dir, port, "bob", "key-bob", ""))
	if out, errOut, code := reload(); code != 0 || !strings.Contains(out, "reloaded") {
		t.Fatalf("a good file: exit %d\n%s%s", code, out, errOut)
	}
	if got := fetchWith(addr, "key-bob", origin.URL+"/a.html"); !strings.HasPrefix(got, "200 ") {
		t.Fatalf("after sift reload the new caller's fetch: %s", got)
	}

	write(reloadConfig(addr, dir, port, "bob", "key-bob", "listen = \n"))
	_, errOut, code := reload()
	if code != 1 || !strings.Contains(errOut, "reload not sent") || !strings.Contains(errOut, "config.hcl:") {
		t.Errorf("a broken file: exit %d, want 1 with its file:line\n%s", code, errOut)
	}
	if strings.Contains(s.Logs.String(), "reload refused") {
		t.Errorf("a file validate refuses reached sift:\n%s", s.Logs.String())
	}

	noPipeline := reloadConfig(addr, dir, port, "bob", "key-bob", "")
	noPipeline = noPipeline[:strings.Index(noPipeline, "pipeline {")]
	write(noPipeline)
	_, errOut, code = reload()
	if code != 1 || !strings.Contains(errOut, "reload refused") || !strings.Contains(strings.ToLower(errOut), "pipeline") {
		t.Errorf("a file the running sift refuses: exit %d, want 1 naming the pipeline\n%s", code, errOut)
	}
	page := scrapeMetrics(t, addr)
	if v := sample(page, "sift_config_last_reload_successful"); v != 0 {
		t.Errorf("sift_config_last_reload_successful = %v after a refused reload", v)
	}
	if got := fetchWith(addr, "key-bob", origin.URL+"/b.html"); !strings.HasPrefix(got, "200 ") {
		t.Fatalf("after a refused reload the running configuration's fetch: %s", got)
	}

	if _, errOut, code := runSift(t, nil, "reload", "--config", cfg, "--pid", "1"); code != 1 {
		t.Errorf("reload of a pid that is not sift's: exit %d\n%s", code, errOut)
	}
}
