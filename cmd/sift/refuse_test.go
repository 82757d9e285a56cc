package main

import (
	"context"
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
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testwait"
)

// keyHash is the hex SHA-256 of key, as a caller block holds it.
func keyHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// cutBefore is src up to (not including) the first line starting with
// prefix: the file as a write cut short there leaves it.
func cutBefore(t *testing.T, src, prefix string) string {
	t.Helper()
	i := strings.Index(src, "\n"+prefix)
	if i < 0 {
		t.Fatalf("no %q in %s", prefix, src)
	}
	return src[:i+1]
}

// TestSIGHUPRefusesFilesThatCannotServe drives the real binary: a reload
// to an empty file, to one cut short before its callers or before its
// pipeline, or to one giving two callers one key, is refused by a log line
// at error level that names the file and the problem, and the running
// configuration goes on serving its caller.
func TestSIGHUPRefusesFilesThatCannotServe(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "page "+r.URL.Path)
	}))
	defer origin.Close()
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.hcl")
	running := reloadConfig(addr, dir, port, "old", "old-key", "")
	if err := os.WriteFile(cfg, []byte(running), 0o644); err != nil {
		t.Fatal(err)
	}
	serve := startSift(t, cfg, addr)
	logs := serve.Logs

	tests := []struct {
		name, src, want string
	}{
		{"empty", "", "Empty configuration"},
		{"cut short before the callers", cutBefore(t, running, "caller "), "No caller block"},
		{"cut short before the pipeline", cutBefore(t, running, "pipeline "), "No pipeline block"},
		{"a copied caller block", running + "caller \"copy\" {\n  key_sha256 = \"" + keyHash("old-key") + "\"\n  restricted = true\n}\n", "Duplicate caller key"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(cfg, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := serve.Process.Signal(syscall.SIGHUP); err != nil {
				t.Fatal(err)
			}
			var outcome map[string]any
			testwait.For(t, "the reload's outcome to be logged", func() bool {
				outcome = reloadOutcome(logs.String(), i+1)
				return outcome != nil
			})
			text := fmt.Sprint(outcome["diagnostics"])
			if outcome["level"] != "ERROR" || !strings.HasPrefix(fmt.Sprint(outcome["msg"]), "reload refused") ||
				outcome["config"] != cfg || !strings.Contains(text, tc.want) || !strings.Contains(text, cfg) {
				t.Errorf("the reload's outcome: %v; want an error naming %s and %q", outcome, cfg, tc.want)
			}
			if got := fetchWith(addr, "old-key", origin.URL+"/a"); got != "200 page /a" {
				t.Errorf("the running caller after the refused reload: %s", got)
			}
		})
	}
}

// reloadOutcome is the nth log record saying how a reload ended (refused
// or reloaded), or nil while there are fewer.
func reloadOutcome(log string, n int) map[string]any {
	for line := range strings.SplitSeq(log, "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil {
			continue
		}
		msg := fmt.Sprint(rec["msg"])
		if strings.HasPrefix(msg, "reload refused") || msg == "configuration reloaded" {
			if n--; n == 0 {
				return rec
			}
		}
	}
	return nil
}

// TestServeAndValidateRefuseFilesWithoutCallers: an empty file, or one
// with no caller block, is refused by serve at start and by validate, with
// the problem and the file named.
func TestServeAndValidateRefuseFilesWithoutCallers(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"empty", "", "Empty configuration"},
		{"comments only", "# sift\n", "Empty configuration"},
		{"no caller", "listen = \"127.0.0.1:0\"\n", "No caller block"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := filepath.Join(t.TempDir(), "config.hcl")
			if err := os.WriteFile(cfg, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"serve", "--config", cfg}, {"validate", cfg}} {
				// A serve that does not refuse would listen until killed.
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				cmd := exec.CommandContext(ctx, siftBin, args...)
				cmd.Dir = t.TempDir()
				_, stderr, code := runCmd(t, cmd)
				cancel()
				if code <= 0 || !strings.Contains(stderr, "Error: "+tc.want) || !strings.Contains(stderr, cfg) {
					t.Errorf("%s: exit %d, want an error %q naming %s:\n%s", args[0], code, tc.want, cfg, stderr)
				}
			}
		})
	}
}
