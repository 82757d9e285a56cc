package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testwait"
)

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// testCaller holds the key "test-key", which sees /healthz's detail.
const testCaller = `caller "test" {
  key_sha256 = "62af8704764faf8ea82fc61ce9c4c3908b6cb97d463a634e9e587d7c885db0ef"
}
`

func TestServeHealthAndShutdown(t *testing.T) {
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cfg := filepath.Join(t.TempDir(), "config.hcl")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("listen = %q\ndata_dir = %q\nextractor \"html\" {\n  pool = 1\n}\n%s", addr, filepath.Dir(cfg), testCaller)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := startSift(t, cfg, addr)

	var health struct {
		OK           bool
		Stages       []string
		Dependencies struct {
			Plugins []struct {
				Name       string
				Live, Size int
			}
		}
	}
	testwait.For(t, "sift to answer /healthz", func() bool {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/healthz", nil)
		req.Header.Set("Authorization", "Bearer test-key")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		return json.NewDecoder(resp.Body).Decode(&health) == nil
	})
	if !health.OK || strings.Join(health.Stages, ",") != "guard,fetch,extract" || len(health.Dependencies.Plugins) != 9 { // html, delimited, epub, feeds, json, notebook, office, pdf, text
		t.Fatalf("health %+v", health)
	}
	for _, p := range health.Dependencies.Plugins {
		if p.Live != p.Size {
			t.Errorf("plugin %s: %d of %d processes live", p.Name, p.Live, p.Size)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-cmd.exited:
		if err := cmd.Wait(); err != nil {
			t.Fatalf("serve exited with %v after SIGTERM", err)
		}
	case <-time.After(testwait.Deadline):
		t.Fatal("serve did not stop on SIGTERM")
	}
}

// TestServeRefusesDevKeyBeyondLoopback: serve and validate both refuse the
// development key on a non-loopback listen address, however its hash's hex
// is spelled.
func TestServeRefusesDevKeyBeyondLoopback(t *testing.T) {
	for _, hash := range []string{
		"4525af7e8f344cc741a6e9608adc2f8a4c5d1303103ca9ac907b698232109aea",
		"4525AF7E8F344CC741A6E9608ADC2F8A4C5D1303103CA9AC907B698232109AEA",
	} {
		cfg := filepath.Join(t.TempDir(), "config.hcl")
		src := `listen = "0.0.0.0:0"
caller "local" {
  key_sha256 = "` + hash + `"
}
`
		if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"serve", "--config", cfg}, {"validate", cfg}} {
			// A serve that does not refuse would listen until killed.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			cmd := exec.CommandContext(ctx, siftBin, args...)
			cmd.Dir = t.TempDir()
			_, stderr, code := runCmd(t, cmd)
			cancel()
			if code <= 0 || !strings.Contains(stderr, "holds the development key") {
				t.Errorf("%s with %s: exit %d: %s", args[0], hash, code, stderr)
			}
		}
	}
}

// TestSIGTERMDrains: a request in flight when SIGTERM arrives completes,
// then sift exits cleanly.
func TestSIGTERMDrains(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	var releaseOnce sync.Once
	open := func() { releaseOnce.Do(func() { close(release) }) }
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "slow but whole")
	}))
	defer origin.Close()
	defer open()
	addr, serve := startSiftCmd(t, origin, "")
	result := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/fetch", strings.NewReader(`{"url":"`+origin.URL+`/"}`))
		req.Header.Set("Authorization", "Bearer test-key")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			result <- err.Error()
			return
		}
		defer resp.Body.Close()
		var body struct{ Content string }
		_ = json.NewDecoder(resp.Body).Decode(&body)
		result <- fmt.Sprintf("%d %s", resp.StatusCode, body.Content)
	}()
	// A deadline, so a request that never reaches the origin fails the test
	// instead of hanging the suite.
	select {
	case <-entered:
	case got := <-result:
		t.Fatalf("the fetch ended before reaching the origin: %s", got)
	case <-time.After(30 * time.Second):
		t.Fatal("the fetch never reached the origin")
	}
	if err := serve.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The origin answers only once sift is draining: its listener closed.
	testwait.For(t, "sift to stop accepting connections", func() bool {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
		}
		return err != nil
	})
	open()
	if got := <-result; got != "200 slow but whole" {
		t.Fatalf("in-flight request: %s", got)
	}
	if err := serve.Wait(); err != nil {
		t.Fatalf("sift exited with %v", err)
	}
}

// TestPluginsDieWithServe: a SIGKILLed sift serve leaves no plugin
// process behind.
func TestPluginsDieWithServe(t *testing.T) {
	origin := fixturePages(t)
	_, serve := startSiftCmd(t, origin, "")
	children := childPIDs(serve.Process.Pid)
	if len(children) < 3 { // html ×2, json, text …
		t.Fatalf("sift serve has %d plugin processes: %v", len(children), children)
	}
	if err := serve.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = serve.Wait()
	for _, pid := range children {
		testwait.For(t, fmt.Sprintf("plugin %d to die with sift serve", pid), func() bool { return !alive(pid) })
	}
}

// childPIDs lists the children of pid, from every one of its threads.
func childPIDs(pid int) []int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	var out []int
	for _, f := range tasks {
		raw, _ := os.ReadFile(f)
		for _, field := range strings.Fields(string(raw)) {
			if n, err := strconv.Atoi(field); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// alive reports whether pid is a running process (a zombie is dead).
func alive(pid int) bool {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(raw), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}
