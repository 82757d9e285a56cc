package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/internal/pgtest"
)

// TestOutageShowsNoDatabaseDetails: with its PostgreSQL gone, sift tells
// callers and the unauthenticated /healthz "storage unavailable", and
// never the database's address, port or user.
func TestOutageShowsNoDatabaseDetails(t *testing.T) {
	pg, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pg.Stop)
	dsn, err := pg.CreateDB("sift")
	if err != nil {
		t.Fatal(err)
	}
	origin := fixturePages(t)
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	sum := sha256.Sum256([]byte("key-0"))
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.hcl")
	src := fmt.Sprintf(`listen   = %q
data_dir = %q
store {
  driver  = "postgres"
  dsn_env = "SIFT_DSN"
}
caller "c0" {
  key_sha256 = %q
}
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {}
  stage "extract" {}
  stage "cache" {}
}
`, addr, dir, hex.EncodeToString(sum[:]), port)
	if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(siftBin, "serve", "--config", cfg)
	cmd.Env = append(os.Environ(), "SIFT_DSN="+dsn)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitHealthy(t, addr)

	pg.Stop()
	pgPort := regexp.MustCompile(`port=(\d+)`).FindStringSubmatch(dsn)[1]
	secrets := []string{pgPort, "user=", "postgres", "dbname", "sift "}
	check := func(what string, status int, body string) {
		t.Helper()
		if !strings.Contains(body, "storage unavailable") {
			t.Errorf("%s: %d %s, want it to say storage unavailable", what, status, body)
		}
		for _, s := range secrets {
			if strings.Contains(body, s) {
				t.Errorf("%s shows %q: %s", what, s, body)
			}
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable || time.Now().After(deadline) {
			check("/healthz", resp.StatusCode, string(body))
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, call := range []struct{ method, path, body string }{
		{"POST", "/v1/fetch", `{"url": "` + origin.URL + `/a.html"}`},
		{"POST", "/v1/batch", `{"targets": [{"url": "` + origin.URL + `/b.html"}]}`},
		{"GET", "/v1/batch/00000000-0000-0000-0000-000000000000", ""},
	} {
		req, _ := http.NewRequest(call.method, "http://"+addr+call.path, strings.NewReader(call.body))
		req.Header.Set("Authorization", "Bearer key-0")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		check(call.method+" "+call.path, resp.StatusCode, string(body))
	}
}
