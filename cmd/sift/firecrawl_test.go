package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/testenv"
)

// TestFirecrawlJSSDK runs the real Firecrawl JS SDK's checks
// (testdata/firecrawl-js/check.mjs: scrape, search, batch) against a
// running sift serving loopback fixture pages.
func TestFirecrawlJSSDK(t *testing.T) {
	sdkDir := testenv.NodeProject(t, os.DirFS(filepath.Join("testdata", "firecrawl-js")))
	origin := fixturePages(t)
	addr, _ := startSiftCmd(t, origin, searxngBlock(t))
	check := exec.Command("node", filepath.Join(sdkDir, "check.mjs"))
	check.Env = append(os.Environ(), "SIFT_URL=http://"+addr, "SIFT_KEY=test-key", "CHECKS=scrape,search,batch", "QUERY=reverse proxy nginx",
		"SLOW_URL="+origin.URL+"/slow.html",
		"PAGE_URLS="+strings.Join([]string{origin.URL + "/a.html", origin.URL + "/b.html", origin.URL + "/c.html"}, ","))
	var out bytes.Buffer
	check.Stdout, check.Stderr = &out, &out
	err := check.Run()
	t.Logf("check.mjs:\n%s", out.String())
	if err != nil || !strings.Contains(out.String(), " 0 failed") {
		t.Fatalf("the Firecrawl SDK checks failed: %v", err)
	}
}

// TestFirecrawlJSSDKv1 runs the real Firecrawl JS SDK 1.x, which speaks
// Firecrawl v1 and is still in agents' lockfiles
// (testdata/firecrawl-js1/check.mjs): scrapeUrl, mapUrl and search work,
// their refusals show sift's reason, and sift's own /v1/search answers
// beside the SDK's search on the same path.
func TestFirecrawlJSSDKv1(t *testing.T) {
	sdkDir := testenv.NodeProject(t, os.DirFS(filepath.Join("testdata", "firecrawl-js1")))
	origin := fixturePages(t)
	addr, _ := startSiftCmd(t, origin, searxngBlock(t))
	check := exec.Command("node", filepath.Join(sdkDir, "check.mjs"))
	check.Env = append(os.Environ(), "SIFT_URL=http://"+addr, "SIFT_KEY=test-key", "QUERY=reverse proxy nginx",
		"PAGE_URLS="+origin.URL+"/a.html,"+origin.URL+"/b.html")
	var out bytes.Buffer
	check.Stdout, check.Stderr = &out, &out
	err := check.Run()
	t.Logf("check.mjs:\n%s", out.String())
	if err != nil || !strings.Contains(out.String(), " 0 failed") {
		t.Fatalf("the Firecrawl v1 SDK checks failed: %v", err)
	}
}

// TestFirecrawlMCP runs the real Firecrawl MCP server (firecrawl-mcp, over
// stdio, FIRECRAWL_API_URL pointed at sift) under a real MCP client
// (testdata/firecrawl-mcp/check.mjs): its scrape tool, four parallel
// scrapes of one host (none refused busy), links, map, a crawl refused
// with advice the agent can follow, the query format, and a search with
// the tool's own defaults (one warning).
func TestFirecrawlMCP(t *testing.T) {
	dir := testenv.NodeProject(t, os.DirFS(filepath.Join("testdata", "firecrawl-mcp")))
	origin := fixturePages(t)
	addr, _ := startSiftCmd(t, origin, searxngBlock(t))
	check := exec.Command("node", filepath.Join(dir, "check.mjs"))
	check.Env = append(os.Environ(), "SIFT_URL=http://"+addr, "SIFT_KEY=test-key", "QUERY=reverse proxy nginx",
		"PAGE_URLS="+strings.Join([]string{origin.URL + "/a.html", origin.URL + "/b.html", origin.URL + "/c.html", origin.URL + "/d.html"}, ","))
	var out bytes.Buffer
	check.Stdout, check.Stderr = &out, &out
	err := check.Run()
	t.Logf("check.mjs:\n%s", out.String())
	if err != nil || !strings.Contains(out.String(), " 0 failed") {
		t.Fatalf("the Firecrawl MCP checks failed: %v", err)
	}
}

// TestFirecrawlJSBatchPolling: the SDK's batchScrape() over three pages
// that each take 3 s polls the job at its interval and no faster: it makes
// at most (job seconds / poll interval + 4) requests to sift, counted by a
// loopback proxy in front of it (a `next` that led back to the same page
// would spin the SDK into thousands).
func TestFirecrawlJSBatchPolling(t *testing.T) {
	sdkDir := testenv.NodeProject(t, os.DirFS(filepath.Join("testdata", "firecrawl-js")))
	origin := fixturePages(t)
	addr, _ := startSiftCmd(t, origin, "")
	var requests atomic.Int64
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: addr})
	counter := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(counter.Close)
	check := exec.Command("node", filepath.Join(sdkDir, "check.mjs"))
	check.Env = append(os.Environ(), "SIFT_URL="+counter.URL, "SIFT_KEY=test-key", "CHECKS=poll",
		"SLOW_URLS="+strings.Join([]string{origin.URL + "/slow1.html", origin.URL + "/slow2.html", origin.URL + "/slow3.html"}, ","),
		"PAGE_URLS="+strings.Join([]string{origin.URL + "/a.html", origin.URL + "/b.html", origin.URL + "/c.html"}, ","))
	var out bytes.Buffer
	check.Stdout, check.Stderr = &out, &out
	err := check.Run()
	t.Logf("check.mjs:\n%s", out.String())
	if err != nil || !strings.Contains(out.String(), " 0 failed") {
		t.Fatalf("the Firecrawl SDK polling check failed: %v", err)
	}
	var secs float64
	for _, line := range strings.Split(out.String(), "\n") {
		if v, ok := strings.CutPrefix(line, "JOB_SECONDS "); ok {
			secs, _ = strconv.ParseFloat(v, 64)
		}
	}
	const pollInterval = 1.0 // seconds, as check.mjs asks
	limit := int64(secs/pollInterval) + 4
	t.Logf("batchScrape over 3 pages of 3 s: %d requests to sift in %.1f s (at most %d allowed)", requests.Load(), secs, limit)
	if secs == 0 || requests.Load() > limit {
		t.Fatalf("%d requests in %.1f s: want at most %d", requests.Load(), secs, limit)
	}
}

func fixturePages(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".html")
		if strings.HasPrefix(name, "slow") { // answers after a few seconds, for the batch checks
			select {
			case <-time.After(3 * time.Second):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<html><head><title>Page %s</title><meta property="og:title" content="OG Page %[1]s"></head><body><article><h1>Page %s</h1>%s<p>Next: <a href="/a.html">page a</a>.</p></article></body></html>`,
			name, name, strings.Repeat("<p>Fixture text for the Firecrawl SDK check, served on loopback only. </p>", 10))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// startSiftFor runs `sift serve` with a caller holding "test-key" and a
// guard that admits the origin's loopback port, and returns its address.
func startSiftFor(t *testing.T, origin *httptest.Server) string {
	addr, _ := startSiftCmd(t, origin, "")
	return addr
}

// searxngBlock serves a recorded SearXNG answer on loopback and returns the
// search block that reaches it.
func searxngBlock(t *testing.T) string {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("..", "..", "search", "testdata", "searxng.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	port := netip.MustParseAddrPort(srv.Listener.Addr().String()).Port()
	return fmt.Sprintf("search {\n  allow_cidrs = [\"127.0.0.0/8\"]\n  allow_ports = [%d]\n  searxng {\n    url = %q\n  }\n}\n", port, srv.URL)
}

func startSiftCmd(t testing.TB, origin *httptest.Server, extra string) (string, *served) {
	t.Helper()
	return startSiftPipeline(t, origin, "", extra)
}

// sdkKey is the key of the "sdk" caller of the sift startSiftPipeline runs.
const sdkKey = "test-key"

// startSiftPipeline is startSiftCmd with stages after extract (a cache,
// a digest) in the pipeline, and env added to sift's environment.
func startSiftPipeline(t testing.TB, origin *httptest.Server, afterExtract, extra string, env ...string) (string, *served) {
	t.Helper()
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cfg := filepath.Join(t.TempDir(), "config.hcl")
	src := fmt.Sprintf(`listen = %q
data_dir = %q
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
  %s
}
%s
%s`, addr, filepath.Dir(cfg), port, afterExtract, patientExtractors(extra), extra)
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return addr, startSift(t, cfg, addr, env...)
}

// patientExtractors are the html and pdf blocks of a test config, with a
// call timeout of 5 minutes: these tests check behaviour, not plugin
// deadlines, and on a loaded machine a PDF can take longer than the
// default. A block extra declares itself is left to it.
func patientExtractors(extra string) string {
	var out strings.Builder
	for _, name := range []string{"html", "pdf"} {
		if !strings.Contains(extra, fmt.Sprintf("extractor %q", name)) {
			fmt.Fprintf(&out, "extractor %q {\n  timeout = \"5m\"\n}\n", name)
		}
	}
	return out.String()
}

func TestFetchCLI(t *testing.T) {
	origin := fixturePages(t)
	addr := startSiftFor(t, origin)
	t.Setenv("SIFT_URL", "http://"+addr)
	t.Setenv("SIFT_KEY", "test-key")
	stdout, stderr, code := runSift(t, nil, "fetch", origin.URL+"/a.html")
	if code != 0 || !strings.HasPrefix(stdout, "# Page a\n") || !strings.Contains(stdout, "Fixture text") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	_, stderr, code = runSift(t, nil, "fetch", "http://10.0.0.5/")
	if code == 0 || !strings.Contains(stderr, "blocked: private address 10.0.0.5") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Setenv("SIFT_KEY", "wrong")
	if _, stderr, code = runSift(t, nil, "fetch", origin.URL+"/a.html"); code == 0 || !strings.Contains(stderr, "unauthorized: invalid key: send Authorization: Bearer") || !strings.Contains(stderr, "SIFT_KEY") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

func TestSearchCLI(t *testing.T) {
	addr, _ := startSiftCmd(t, fixturePages(t), searxngBlock(t))
	t.Setenv("SIFT_URL", "http://"+addr)
	t.Setenv("SIFT_KEY", "test-key")
	stdout, stderr, code := runSift(t, nil, "search", "--k", "2", "reverse", "proxy")
	if code != 0 || !strings.HasPrefix(stdout, "1. Module ngx_http_proxy_module\n") || strings.Contains(stdout, "3. ") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}
