//go:build e2e

// Package ssrf is the black-box test of sift's guard: every case of
// testdata/ssrf/corpus.json and of the project's own sift_cases.json
// against the real `sift serve` binary, through its public API, inside the
// sealed network namespace of run.sh, where a canary counts any arrival on
// a forbidden address.
package ssrf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testwait"
)

type corpusCase struct {
	ID     string          `json:"id"`
	URL    string          `json:"url"`
	Expect string          `json:"expect"`
	Stage  string          `json:"stage"`
	Why    string          `json:"why"`
	Config json.RawMessage `json:"config"`
}

type caseConfig struct {
	AllowHosts []string          `json:"allow_hosts"`
	AllowCIDRs []string          `json:"allow_cidrs"`
	AllowPorts []int             `json:"allow_ports"`
	Env        map[string]string `json:"env"`
}

const key = "e2e-key"

var siftBin string

func TestMain(m *testing.M) {
	if os.Getenv("SIFT_CANARY_URL") == "" || os.Getenv("SIFT_NETNS_INNER") == "" {
		fmt.Fprintln(os.Stderr, "ssrf: NOT IN THE SEALED NAMESPACE. Run e2e/ssrf/run.sh (as root); this suite never touches the host network.")
		os.Exit(1)
	}
	siftBin = os.Getenv("SIFT_BIN")
	if siftBin == "" {
		fmt.Fprintln(os.Stderr, "ssrf: SIFT_BIN must name the sift binary under test")
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// caseFiles are the public cases and the project's own (ids "sift-...").
var caseFiles = []string{"corpus.json", "sift_cases.json"}

// corpus reads every case file, and the count each holds.
func corpus(t *testing.T) ([]corpusCase, map[string]int) {
	t.Helper()
	var all []corpusCase
	counts := map[string]int{}
	ids := map[string]bool{}
	for _, name := range caseFiles {
		raw, err := os.ReadFile(filepath.Join(os.Getenv("SIFT_SSRF_DIR"), name))
		if err != nil {
			t.Fatal(err)
		}
		var cases []corpusCase
		if err := json.Unmarshal(raw, &cases); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range cases {
			if ids[c.ID] {
				t.Fatalf("%s: case id %s used twice", name, c.ID)
			}
			ids[c.ID] = true
		}
		counts[name] = len(cases)
		all = append(all, cases...)
	}
	return all, counts
}

// sift is one running `sift serve` with a given guard configuration.
type sift struct {
	addr string
	cfg  string
	cmd  *exec.Cmd
}

func startSift(t *testing.T, cc caseConfig) *sift {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var guard strings.Builder
	if len(cc.AllowHosts) > 0 {
		fmt.Fprintf(&guard, "    allow_hosts = %s\n", hclList(cc.AllowHosts))
	}
	if len(cc.AllowCIDRs) > 0 {
		fmt.Fprintf(&guard, "    allow_cidrs = %s\n", hclList(cc.AllowCIDRs))
	}
	if len(cc.AllowPorts) > 0 {
		b, _ := json.Marshal(cc.AllowPorts)
		fmt.Fprintf(&guard, "    allow_ports = %s\n", b)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.hcl")
	src := fmt.Sprintf(`listen   = %q
data_dir = %q
caller "e2e" {
  key_sha256 = %q
}
pipeline {
  stage "guard" {
%s  }
  stage "fetch" {}
  stage "extract" {}
}
gates {
  wait = "1s"
}
`, addr, dir, keyHash(), guard.String())
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(siftBin, "serve", "--config", cfg)
	cmd.Env = os.Environ()
	for k, v := range cc.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	s := &sift{addr: addr, cfg: cfg, cmd: cmd}
	testwait.For(t, fmt.Sprintf("sift to start on %s", addr), func() bool {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
	return s
}

func hclList(items []string) string {
	b, _ := json.Marshal(items)
	return string(b)
}

// verdict runs one case the way an attacker meets sift: precheck cases
// through `sift guard --no-resolve`, the others through POST /v1/fetch.
func (s *sift) verdict(t *testing.T, c corpusCase) (string, string) {
	if c.Stage == "precheck" {
		out, err := exec.Command(siftBin, "guard", "--no-resolve", "--config", s.cfg, c.URL).CombinedOutput()
		line := strings.TrimSpace(string(out))
		if err == nil && strings.HasPrefix(line, "allow ") {
			return "allow", line
		}
		return "block", strings.TrimPrefix(line, "block "+c.URL+": ")
	}
	body, _ := json.Marshal(map[string]any{"url": c.URL})
	req, _ := http.NewRequest(http.MethodPost, "http://"+s.addr+"/v1/fetch", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s: sift did not answer: %v", c.ID, err)
	}
	defer resp.Body.Close()
	var answer struct {
		Error string `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&answer)
	if resp.StatusCode == http.StatusOK {
		return "allow", ""
	}
	return "block", answer.Error
}

// acceptable reports whether a refusal has the right kind: the guard's
// stages refuse with a policy reason, never a network error.
func acceptable(c corpusCase, reason string) bool {
	switch c.Stage {
	case "precheck", "resolve":
		return !strings.HasPrefix(reason, "upstream") && !strings.HasPrefix(reason, "timeout") && !strings.HasPrefix(reason, "internal")
	case "redirect":
		return strings.HasPrefix(reason, "blocked: ") || strings.HasPrefix(reason, "redirects: ")
	}
	return reason != "" && !strings.HasPrefix(reason, "internal")
}

func canaries(t *testing.T) string {
	resp, err := http.Get(os.Getenv("SIFT_CANARY_URL"))
	if err != nil {
		t.Fatalf("canary count: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(b))
}

func TestCorpus(t *testing.T) {
	start := time.Now()
	cases, counts := corpus(t)
	instances := map[string]*sift{}
	var failures []string
	for _, c := range cases {
		var cc caseConfig
		if len(c.Config) > 0 {
			if err := json.Unmarshal(c.Config, &cc); err != nil {
				t.Fatalf("%s: config: %v", c.ID, err)
			}
		}
		confKey := string(c.Config)
		s, ok := instances[confKey]
		if !ok {
			s = startSift(t, cc)
			instances[confKey] = s
		}
		got, reason := s.verdict(t, c)
		switch {
		case got != c.Expect:
			failures = append(failures, fmt.Sprintf("%s (%s): got %s (%s), want %s — %s", c.ID, c.Stage, got, reason, c.Expect, c.Why))
		case got == "block" && !acceptable(c, reason):
			failures = append(failures, fmt.Sprintf("%s (%s): refused with %q, not a policy refusal", c.ID, c.Stage, reason))
		}
		if n := canaries(t); n != "0" {
			t.Fatalf("after %s: %s canary hits — sift reached a forbidden address", c.ID, n)
		}
	}
	sort.Strings(failures)
	t.Logf("%d cases (%v), %d sift instances, %s", len(cases), counts, len(instances), time.Since(start).Round(time.Second))
	if len(failures) > 0 {
		t.Fatalf("%d of %d cases disagree:\n  %s", len(failures), len(cases), strings.Join(failures, "\n  "))
	}
}
