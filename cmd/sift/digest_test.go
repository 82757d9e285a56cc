package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/health"
	"github.com/siftd/sift/honcho/honchotest"
	"github.com/siftd/sift/internal/testkit/testenv/llm"
)

// TestDigestThroughRealLLM: sift serve runs its built-in digester as a
// plugin process against a real llama.cpp engine (internal/testkit/testenv/llm),
// with context from a loopback Honcho, and answers the whole /v1/fetch
// envelope; /healthz reports both services; with the engine stopped, the
// fetch still answers, with the clean text.
func TestDigestThroughRealLLM(t *testing.T) {
	llmBase, stopLLM := llm.Chat(t)

	honchoFake := honchotest.New(t)
	honchoFake.Messages = []map[string]any{
		honchotest.Message("m1", "kyle", "We already reviewed the fixture pages in August.", time.Date(2026, 8, 12, 14, 3, 22, 0, time.UTC)),
	}
	origin := fixturePages(t)
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cfg := filepath.Join(t.TempDir(), "config.hcl")
	src := fmt.Sprintf(`listen = %q
data_dir = %q
caller "sdk" {
  key_sha256 = "62af8704764faf8ea82fc61ce9c4c3908b6cb97d463a634e9e587d7c885db0ef"
  workspace  = "fleet"
  restricted = true
}
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {}
  stage "extract" {}
  stage "digest" {}
  stage "context" {}
}
context "honcho" {
  url = %q
}
digester "llm" {
  endpoint       = %q
  max_tokens     = 48
  context_tokens = 2048
  pool           = 1
  timeout        = "30s"
}
`, addr, filepath.Dir(cfg), port, honchoFake.URL, llmBase)
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	startSift(t, cfg, addr)

	fetch := func() fetchEnvelope {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/fetch",
			strings.NewReader(`{"url":"`+origin.URL+`/a.html","mode":"digest","question":"What is the page about?","context":true}`))
		req.Header.Set("Authorization", "Bearer test-key")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		dec := json.NewDecoder(resp.Body)
		dec.DisallowUnknownFields()
		var env fetchEnvelope
		if err := dec.Decode(&env); err != nil || resp.StatusCode != 200 {
			t.Fatalf("status %d: %v", resp.StatusCode, err)
		}
		return env
	}
	env := fetch()
	checkEnvelope(t, env, origin.URL+"/a.html")
	t.Logf("sizes %+v, digest %q", env.Sizes, env.Content)
	if strings.Contains(env.Content, "Fixture text for the Firecrawl SDK check") || len(env.Warnings) != 0 {
		t.Fatalf("digest %q, warnings %q: want the model's own text", env.Content, env.Warnings)
	}
	if len(env.Context) != 1 || env.Context[0] != (hit{Kind: "message", Peer: "kyle",
		Content: "We already reviewed the fixture pages in August.", CreatedAt: "2026-08-12T14:03:22Z"}) {
		t.Fatalf("context %+v", env.Context)
	}
	if s := honchoFake.Searches(); len(s) != 1 || s[0].Workspace != "fleet" || len(strings.Fields(s[0].Query)) < 3 {
		t.Fatalf("Honcho searches %+v", s)
	}
	services := healthServices(t, addr)
	if !services["digester/llm"].OK || !services["context/honcho"].OK || len(honchoFake.Unexpected()) != 0 {
		t.Fatalf("health %+v; Honcho routes other than search: %v", services, honchoFake.Unexpected())
	}

	stopLLM()
	env = fetch()
	if !strings.Contains(env.Content, "Fixture text") || !slices.Contains(env.Warnings, "digest fell back to clean: unavailable") {
		t.Fatalf("with the engine stopped: %q, warnings %q", env.Content, env.Warnings)
	}
}

// fetchEnvelope is /v1/fetch's answer; decoding it with unknown
// fields refused pins its shape.
type fetchEnvelope struct {
	Content   string            `json:"content"`
	Mode      string            `json:"mode"`
	Untrusted bool              `json:"untrusted"`
	Title     string            `json:"title"`
	Metadata  map[string]string `json:"metadata"`
	Hint      string            `json:"hint"`
	Source    struct {
		URL         string    `json:"url"`
		FinalURL    string    `json:"final_url"`
		Status      int       `json:"status"`
		ContentType string    `json:"content_type"`
		FetchedAt   time.Time `json:"fetched_at"`
		Hash        string    `json:"hash"`
		Bytes       int       `json:"bytes"`
		Cached      bool      `json:"cached"`
	} `json:"source"`
	Context []hit `json:"context"`
	Sizes   struct {
		RawTokens      int `json:"raw_tokens"`
		CleanTokens    int `json:"clean_tokens"`
		ReturnedTokens int `json:"returned_tokens"`
	} `json:"sizes"`
	Warnings []string `json:"warnings"`
}

type hit struct {
	Kind      string `json:"kind"`
	Peer      string `json:"peer"`
	Content   string `json:"content"`
	CreatedAt string `json:"created_at"`
}

func checkEnvelope(t *testing.T, env fetchEnvelope, url string) {
	t.Helper()
	src := env.Source
	switch {
	// The native title is the extractor's, which prefers og:title (the
	// Firecrawl metadata.title is the <title>; its test checks that).
	case env.Mode != "digest" || !env.Untrusted || env.Content == "" || env.Title != "OG Page a":
		t.Fatalf("fetchEnvelope %+v", env)
	case src.URL != url || src.FinalURL != url || src.Status != 200 || src.ContentType != "text/html; charset=utf-8" ||
		time.Since(src.FetchedAt) > time.Minute || !strings.HasPrefix(src.Hash, "sha256:") || len(src.Hash) != 71 ||
		src.Bytes < 700 || src.Cached:
		t.Fatalf("source %+v", src)
	case env.Sizes.RawTokens <= env.Sizes.CleanTokens || env.Sizes.CleanTokens <= 0 || env.Sizes.ReturnedTokens <= 0 ||
		env.Sizes.ReturnedTokens > 200:
		t.Fatalf("sizes %+v", env.Sizes)
	case env.Warnings == nil:
		t.Fatal("warnings missing: the fetchEnvelope always carries the list")
	}
}

// healthServices reads the outside services' part of /healthz, which only
// a caller with a key sees.
func healthServices(t *testing.T, addr string) map[string]health.Result {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/healthz", nil)
	req.Header.Set("Authorization", "Bearer test-key")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Dependencies struct {
			Services map[string]health.Result `json:"services"`
		} `json:"dependencies"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return body.Dependencies.Services
}
