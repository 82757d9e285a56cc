package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testwait"
)

// syncBuffer is a bytes.Buffer a subprocess writes while the test reads.
// reloadConfig is a configuration whose one caller holds key, on a chain
// that admits origin; extra is added at the top level.
func reloadConfig(addr, dataDir string, originPort uint16, callerName, key, extra string) string {
	sum := sha256.Sum256([]byte(key))
	return fmt.Sprintf(`listen = %q
data_dir = %q
caller %q {
  key_sha256 = %q
}
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {}
  stage "extract" {}
}
%s`, addr, dataDir, callerName, hex.EncodeToString(sum[:]), originPort, extra)
}

// fetchWith posts a /v1/fetch of url with key and answers "STATUS CONTENT".
func fetchWith(addr, key, url string) string {
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/fetch", strings.NewReader(`{"url":"`+url+`"}`))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	var body struct{ Content string }
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(body.Content))
}

// TestSIGHUPReloads drives the real binary: SIGHUP swaps to the edited
// file (the new caller's key works, the old one's no longer does), a
// request in flight across the reload finishes on the old configuration,
// a listen address changed in the file is kept with a warning, a broken
// file is logged and the running configuration kept, and every signal is
// logged.
func TestSIGHUPReloads(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	var releaseOnce sync.Once
	open := func() { releaseOnce.Do(func() { close(release) }) }
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			entered <- struct{}{}
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "page "+r.URL.Path)
	}))
	defer origin.Close()
	defer open()
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.hcl")
	write := func(src string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(reloadConfig(addr, dir, port, "old", "old-key", ""))
	serve := startSift(t, cfg, addr)
	logs := serve.Logs
	if got := fetchWith(addr, "old-key", origin.URL+"/a"); got != "200 page /a" {
		t.Fatalf("before the reload: %s", got)
	}

	// A request in flight across the reload, on the old caller's key.
	inFlight := make(chan string, 1)
	go func() { inFlight <- fetchWith(addr, "old-key", origin.URL+"/slow") }()
	select {
	case <-entered:
	case got := <-inFlight:
		t.Fatalf("the slow fetch ended before reaching the origin: %s", got)
	case <-time.After(testwait.Deadline):
		t.Fatal("the slow fetch never reached the origin")
	}

	// The new file: another caller, and a listen address only a restart
	// can change.
	write(reloadConfig("127.0.0.1:1", dir, port, "new", "new-key", ""))
	if err := serve.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the new caller's key to be accepted", func() bool {
		return fetchWith(addr, "new-key", origin.URL+"/b") == "200 page /b"
	})
	if got := fetchWith(addr, "old-key", origin.URL+"/c"); !strings.HasPrefix(got, "401 ") {
		t.Fatalf("the removed caller's key after the reload: %s", got)
	}
	open()
	if got := <-inFlight; got != "200 page /slow" {
		t.Fatalf("the request in flight across the reload: %s", got)
	}
	// It counts under the caller it came from, which the reload removed,
	// never as caller="other".
	page := scrapeMetrics(t, addr)
	if got := sample(page, `sift_http_requests_total{caller="old",route="/v1/fetch",status="200"}`); got != 2 {
		t.Errorf("the removed caller's fetches: %v, want 2:\n%s", got, grepLines(page, "sift_http_requests_total"))
	}
	if strings.Contains(page, `caller="other"`) {
		t.Errorf("a caller counted as other:\n%s", grepLines(page, `caller="other"`))
	}
	testwait.For(t, "the previous configuration to be closed", func() bool {
		return strings.Contains(logs.String(), "previous configuration closed")
	})
	if text := logs.String(); !strings.Contains(text, `"signal":"hangup"`) || !strings.Contains(text, "listen changes only when sift restarts") {
		t.Fatalf("the reload's log lines:\n%s", text)
	}

	// A broken file: logged with its diagnostics, the running
	// configuration kept.
	write(reloadConfig(addr, dir, port, "broken", "broken-key", "no_such_setting = 1\n"))
	if err := serve.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the broken file to be refused", func() bool {
		return strings.Contains(logs.String(), "reload refused")
	})
	if text := logs.String(); !strings.Contains(text, "no_such_setting") {
		t.Fatalf("the refusal does not name the problem:\n%s", text)
	}
	if got := fetchWith(addr, "new-key", origin.URL+"/d"); got != "200 page /d" {
		t.Fatalf("the running configuration after a broken file: %s", got)
	}
	if got := fetchWith(addr, "broken-key", origin.URL+"/e"); !strings.HasPrefix(got, "401 ") {
		t.Fatalf("the broken file's caller: %s", got)
	}

	if err := serve.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := serve.Wait(); err != nil {
		t.Fatalf("sift exited with %v", err)
	}
	if text := logs.String(); !strings.Contains(text, `"signal":"terminated"`) {
		t.Fatalf("SIGTERM was not logged:\n%s", text)
	}
}

// pluginPIDs maps each plugin process of sift serve (pid) to the plugin
// it runs: the last word of its command line.
func pluginPIDs(pid int) map[int]string {
	out := map[int]string{}
	for _, child := range childPIDs(pid) {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", child))
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
		out[child] = filepath.Base(args[len(args)-1])
	}
	return out
}

// TestSIGHUPKeepsUnchangedPools: a reload starts new processes only for
// the plugins whose blocks changed; the others keep theirs.
func TestSIGHUPKeepsUnchangedPools(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "page "+r.URL.Path)
	}))
	defer origin.Close()
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.hcl")
	write := func(textPool int) {
		t.Helper()
		src := reloadConfig(addr, dir, port, "c", "key", fmt.Sprintf("extractor \"json\" {\n  pool = 1\n}\nextractor \"text\" {\n  pool = %d\n}\n", textPool))
		if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(1)
	serve := startSift(t, cfg, addr)
	logs := serve.Logs
	before := pluginPIDs(serve.Process.Pid)

	write(2)
	if err := serve.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the previous configuration to be closed", func() bool {
		return strings.Contains(logs.String(), "previous configuration closed")
	})
	if got := fetchWith(addr, "key", origin.URL+"/a"); got != "200 page /a" {
		t.Fatalf("after the reload: %s", got)
	}
	after := pluginPIDs(serve.Process.Pid)
	count := func(m map[int]string, name string) int {
		n := 0
		for _, v := range m {
			if v == name {
				n++
			}
		}
		return n
	}
	if count(before, "json") != 1 || count(before, "text") != 1 || count(after, "text") != 2 {
		t.Fatalf("plugin processes before %v, after %v", before, after)
	}
	for pid, name := range before {
		switch kept := after[pid] == name; {
		case name == "text" && kept:
			t.Errorf("the text pool, whose block changed, kept process %d", pid)
		case name != "text" && !kept:
			t.Errorf("the %s pool, whose block did not change, lost process %d", name, pid)
		}
	}
}
