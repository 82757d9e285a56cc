package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/siftd/sift/internal/testwait"
)

// buildPlugin builds the Go module in dir into a binary and returns its
// path and SHA-256.
func buildPlugin(t *testing.T, dir, name string) (string, string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", dir, err, out)
	}
	raw, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	return bin, hex.EncodeToString(sum[:])
}

// originServing is a loopback origin answering every path with body as
// contentType.
func originServing(t *testing.T, contentType, body string) (*httptest.Server, uint16) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, netip.MustParseAddrPort(srv.Listener.Addr().String()).Port()
}

// serveConfig starts `sift serve` on a config holding the caller "test",
// a guard that admits the loopback origin's port, and extra; it returns
// the listen address once /healthz answers.
func serveConfig(t *testing.T, originPort uint16, extra string) string {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	dir := t.TempDir()
	src := fmt.Sprintf(`listen = %q
data_dir = %q
%s
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {}
  stage "extract" {}
}
%s
`, addr, dir, testCaller, originPort, extra)
	cfg := filepath.Join(dir, "config.hcl")
	if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	serve := exec.Command(siftBin, "serve", "--config", cfg)
	serve.Stderr = &stderr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = serve.Wait(); close(exited) }()
	t.Cleanup(func() { _ = serve.Process.Kill(); <-exited })
	testwait.For(t, "sift serve to answer /healthz", func() bool {
		select {
		case <-exited:
			t.Fatalf("sift serve exited:\n%s", stderr.String())
		default:
		}
		resp, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	return addr
}

// postJSON sends body to path with the test caller's key and decodes the
// answer into out; it returns the status.
func postJSON(t *testing.T, addr, path string, body any, out any) int {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+path, bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer test-key")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s: decode: %v", path, err)
	}
	return resp.StatusCode
}

// TestExamplePluginAsDocumented: examples/extractor, built and declared
// exactly as its doc comment and the README say (content_types =
// ["text/csv"], which the built-in text extractor claims too), answers a
// CSV document through sift serve with a markdown table.
func TestExamplePluginAsDocumented(t *testing.T) {
	bin, sum := buildPlugin(t, filepath.Join("..", "..", "examples", "extractor"), "sift-csv")
	_, port := originServing(t, "text/csv", "name,qty\nbolt,3\nnut,5\nwasher,9\n")
	addr := serveConfig(t, port, fmt.Sprintf(`extractor "csv" {
  command       = [%q]
  sha256        = %q
  content_types = ["text/csv"]
  max_rows      = 2
}`, bin, sum))
	var out struct {
		Content  string
		Warnings []string
		Error    string
	}
	url := fmt.Sprintf("http://127.0.0.1:%d/parts.csv", port)
	if code := postJSON(t, addr, "/v1/fetch", map[string]any{"url": url}, &out); code != http.StatusOK {
		t.Fatalf("status %d: %s", code, out.Error)
	}
	if want := "| name | qty |\n| --- | --- |\n| bolt | 3 |\n| nut | 5 |"; out.Content != want {
		t.Fatalf("content %q, want the example's markdown table %q", out.Content, want)
	}
	if len(out.Warnings) != 1 || out.Warnings[0] != "table cut at 2 of 3 rows" {
		t.Errorf("warnings %q", out.Warnings)
	}
}
