package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testllm"
)

// TestDigestThroughRealLLM: sift serve runs its built-in digester as a
// plugin process against the real llama.cpp engine of ../shared/tools/llm;
// with the engine stopped, the fetch still answers, with the clean text.
func TestDigestThroughRealLLM(t *testing.T) {
	llm := testllm.Start(t, t.TempDir())
	origin := fixturePages(t)
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
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
  endpoint       = %q
  max_tokens     = 48
  context_tokens = 2048
  pool           = 1
  timeout        = "30s"
}
`, addr, port, llm.BaseURL)
	serveConfig(t, addr, src)

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
	llm.Stop()
	clean, warnings := fetch()
	if !strings.Contains(clean, "Fixture text") || !strings.Contains(warnings, "digest fell back to clean: unavailable") {
		t.Fatalf("with the engine stopped: %q, warnings %q", clean, warnings)
	}
}
