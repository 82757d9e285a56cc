package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/pgtest"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// TestOutageShowsNoDatabaseDetails: with its PostgreSQL gone, sift tells
// callers and /healthz (with a key; without one only that it is unwell)
// "storage unavailable", and
// never the database's address, port or user.
func TestOutageShowsNoDatabaseDetails(t *testing.T) {
	pg := pgtest.New(t)
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
	startSift(t, cfg, addr, "SIFT_DSN="+dsn)

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
	// Without a key /healthz says only that sift is unwell; with one, the
	// detail says storage unavailable, and neither names the database.
	healthz := func(key string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/healthz", nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	testwait.For(t, "/healthz to notice the outage", func() bool {
		status, _ := healthz("")
		return status == http.StatusServiceUnavailable
	})
	if status, body := healthz(""); strings.TrimSpace(body) != `{"ok":false}` {
		t.Errorf("/healthz without a key: %d %s, want only {\"ok\":false}", status, body)
	}
	status, body := healthz("key-0")
	check("/healthz with a key", status, body)
	for _, call := range []struct{ method, path, body string }{
		{"POST", "/v1/fetch", `{"url": "` + origin.URL + `/a.html"}`},
		{"POST", "/v1/batch", `{"targets": [{"url": "` + origin.URL + `/b.html"}]}`},
		{"GET", "/v1/batch/00000000000000000000000000000000", ""}, // a job id's length
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
