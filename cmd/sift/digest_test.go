package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDigestThroughRealLLM: sift serve runs its built-in digester as a
// plugin process against the real llama.cpp engine of ../shared/tools/llm;
// with the engine stopped, the fetch still answers, with the clean text.
func TestDigestThroughRealLLM(t *testing.T) {
	work := t.TempDir()
	start, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "tools", "llm", "start.sh"))
	llmPort := freePort(t)
	cmd := exec.Command("bash", start, work)
	cmd.Env = append(os.Environ(), fmt.Sprintf("LLM_PORT=%d", llmPort), fmt.Sprintf("EMBED_PORT=%d", freePort(t)))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("start the llama.cpp engine: %v\n%s", err, out)
	}
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		var pid int
		fmt.Sscan(f, &pid)
		pids = append(pids, pid)
	}
	stopLLM := func() {
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	t.Cleanup(stopLLM)

	origin := fixturePages(t)
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cfg := filepath.Join(t.TempDir(), "config.hcl")
	src := fmt.Sprintf(`listen = %q
caller "sdk" {
  key_sha256 = "62af8704764faf8ea82fc61ce9c4c3908b6cb97d463a634e9e587d7c885db0ef"
}
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {}
  stage "extract" {}
  stage "digest" {}
}
digester "llm" {
  endpoint       = "http://127.0.0.1:%d/v1"
  max_tokens     = 48
  context_tokens = 2048
  pool           = 1
  timeout        = "30s"
}
`, addr, port, llmPort)
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	serve := exec.Command(siftBin, "serve", "--config", cfg)
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	waitHealthy(t, addr)

	fetch := func() (string, string) {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/fetch",
			strings.NewReader(`{"url":"`+origin.URL+`/a.html","mode":"digest","question":"What is the page about?"}`))
		req.Header.Set("Authorization", "Bearer test-key")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			Content  string
			Warnings []string
		}
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != 200 {
			t.Fatalf("status %d: %v", resp.StatusCode, err)
		}
		return body.Content, strings.Join(body.Warnings, "|")
	}
	digest, warnings := fetch()
	if digest == "" || strings.Contains(digest, "Fixture text for the Firecrawl SDK check") || strings.Contains(warnings, "fell back") {
		t.Fatalf("digest %q, warnings %q: want the model's own text", digest, warnings)
	}
	stopLLM()
	clean, warnings := fetch()
	if !strings.Contains(clean, "Fixture text") || !strings.Contains(warnings, "digest fell back to clean: unavailable") {
		t.Fatalf("with the engine stopped: %q, warnings %q", clean, warnings)
	}
}
