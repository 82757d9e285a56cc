package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/config"
	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/internal/batchtarget"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/internal/testkit/testenv"
	"github.com/siftd/sift/internal/testkit/testwait"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/html"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/store"
)

const testKey = "test-key"

// testKeyHash is sha256("test-key").
const testKeyHash = "62af8704764faf8ea82fc61ce9c4c3908b6cb97d463a634e9e587d7c885db0ef"

// quietKey belongs to the restricted caller "quiet", whose workspace is
// "quiet-team"; quietKeyHash is sha256("quiet-key").
const (
	quietKey     = "quiet-key"
	quietKeyHash = "1377c1a984d5a3f51cf602be0a02ae75580a1ec45c38b6a3ec2570bdfcb8bf70"
)

// newTestServer runs sift's real chain (guard, fetch, extract with the
// built-in extractors in process) against a loopback origin the guard is
// configured to admit.
func newTestServer(t testing.TB, origin *httptest.Server, opts testOptions, afterExtract ...string) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	if opts.PublicURL == "" {
		opts.PublicURL = "http://" + srv.Listener.Addr().String()
	}
	srv.Config.Handler = newTestAPI(t, origin, opts, afterExtract...).Handler()
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// newTestAPI is newTestServer's API, not yet served.
func newTestAPI(t testing.TB, origin *httptest.Server, opts testOptions, afterExtract ...string) *Server {
	t.Helper()
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	// html runs in process.
	htmlBlock, builtins := "extractor \"html\" {\n  isolation = \"none\"\n}", host.Builtins{"html": html.New}
	src := fmt.Sprintf(`
data_dir = %q
caller "agent" {
  key_sha256 = %q
}
caller "quiet" {
  key_sha256 = "%s"
  workspace  = "quiet-team"
  restricted = true
}
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {
    timeout = "5s"
  }
  stage "extract" {}
  %s
}
%s
%s
extractor "json" {
  isolation = "none"
}
extractor "text" {
  isolation = "none"
}
extractor "pdf" {
  isolation = "none"
}
`, t.TempDir(), testKeyHash, quietKeyHash, port, strings.Join(afterExtract, "\n"), htmlBlock, opts.extraConfig)
	cfg, diags := config.Parse([]byte(src), "test.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if opts.Metrics == nil {
		opts.Metrics = metrics.New()
	}
	a, diags := app.Load(context.Background(), cfg, app.Options{Version: "test", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Resolver: opts.resolver,
		Extractors: builtins, Observer: opts.Metrics})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	opts.PreCheck = a.PreCheck
	if a.Store != nil {
		opts.History = a.Store
	}
	svc := opts.service(a, cfg)
	opts.Service = svc
	tb := opts.testBatch
	if tb != nil && !tb.Disabled {
		// The runner calls the server it serves, made just below.
		var srv *Server
		fetch := func(ctx context.Context, c batch.Caller, tg batch.Target) ([]byte, error) {
			return batchtarget.New(svc, srv.Firecrawl()).Fetch(ctx, c, tg)
		}
		ro := tb.Runner
		if opts.Metrics == nil {
			opts.Metrics = metrics.New()
		}
		ro.Limits, ro.Hooks, ro.Logger = tb.Limits, opts.Metrics.Batch, opts.Logger
		opts.Batch, opts.PageBytes = batch.New(tb.Store, fetch, ro), tb.PageBytes
		srv = New(opts.Options)
		if err := opts.Batch.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = opts.Batch.Close(ctx)
		})
		return srv
	}
	return New(opts.Options)
}

// testOptions are a test server's Options and what the daemon builds in
// production: the service's gates, search and archive.
type testOptions struct {
	Options
	// Global and PerHost override the gate sizes; 0 means the default.
	Global, PerHost int
	// GateConfig is the gates block; nil means the block's defaults.
	GateConfig *config.Gates
	ArchiveURL string
	Search     *search.Service

	testBatch   *testBatch    // a runner to build over the server
	extraConfig string        // top-level HCL added to the test config
	resolver    *net.Resolver // the guard's resolver
	grepTimeout time.Duration // the grep deadline, service.GrepTimeout when 0
}

// testBatch is the runner a test asks newTestAPI to build over the server
// it makes: its owner in production is the daemon, which shares one
// runner between configurations.
type testBatch struct {
	Store     *store.Store
	Limits    batch.Limits
	Disabled  bool
	Runner    batch.Options
	PageBytes int
}

// service is the application under test, built over a's chain as the
// daemon builds it.
func (o *testOptions) service(a *app.App, cfg *config.Config) *service.Service {
	block := config.Gates{Wait: config.DefaultGateWait, Queue: config.DefaultGateQueue}
	if o.GateConfig != nil {
		block = *o.GateConfig
	}
	gates := service.NewGates(block, service.GateSizes{Global: o.Global, PerHost: o.PerHost}, o.Metrics)
	return service.New(service.Options{Chain: a.Chain, Callers: cfg.Callers, Gates: gates, Metrics: o.Metrics,
		Logger: o.Logger, ArchiveURL: o.ArchiveURL, Search: o.Search, Digester: a.Digester, GrepTimeout: o.grepTimeout})
}

func fixtureOrigin(t testing.TB) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/article", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html lang="en"><head><title>Irrigation</title><meta name="description" content="Drip tips"></head>
<body><article><h1>Irrigation</h1>`+strings.Repeat("<p>Water the beds early in the morning so the roots drink before the sun. </p>", 12)+
			`<p>See the <a href="/guide">drip guide</a> for more.</p><p>Check the soil with a trowel.</p></article></body></html>`)
	})
	mux.HandleFunc("/notes.txt", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, "Water the ferns on Mondays.\n")
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"items":[{"name":"bolt"},{"name":"nut"}]}`)
	})
	// An image of a format no extractor reads (the ocr extractor reads
	// PNG, JPEG, TIFF, WebP, GIF and BMP, not AVIF).
	mux.HandleFunc("/image", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/avif")
		w.Write([]byte("\x00\x00\x00\x1cftypavif"))
	})
	mux.HandleFunc("/shell", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>App</title><script src="/app.js"></script></head><body><div id="root"></div></body></html>`)
	})
	origin := httptest.NewServer(mux)
	t.Cleanup(origin.Close)
	return origin
}

func post(t *testing.T, url, key string, body any) (*http.Response, map[string]any) {
	t.Helper()
	return do(t, http.MethodPost, url, key, body)
}

// do sends body (a string as it is, nil as none, else as JSON) with key
// and decodes the JSON answer.
func do(t *testing.T, method, url, key string, body any) (*http.Response, map[string]any) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, _ := json.Marshal(b)
		rd = bytes.NewReader(buf)
	}
	req, _ := http.NewRequest(method, url, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s: %d, not JSON: %q", method, url, resp.StatusCode, raw)
	}
	return resp, out
}

func TestAuth(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, fixtureOrigin(t), testOptions{})
	for _, tc := range []struct{ key, want string }{{"", "unauthorized: no key: send Authorization: Bearer <key>"},
		{"wrong", "unauthorized: invalid key: send Authorization: Bearer <key> with a key sift knows"}} {
		resp, body := post(t, srv.URL+"/v1/fetch", tc.key, map[string]any{"url": "http://example.com/"})
		if resp.StatusCode != 401 || body["error"] != tc.want || body["success"] != false {
			t.Errorf("key %q: %d %v", tc.key, resp.StatusCode, body)
		}
		// RFC 6750's challenge, on /mcp too, so an MCP client asks for
		// a bearer key instead of starting an OAuth flow.
		for _, path := range []string{"/v1/fetch", "/mcp"} {
			resp, _ := post(t, srv.URL+path, tc.key, map[string]any{})
			if got := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 401 || got != `Bearer realm="sift"` {
				t.Errorf("%s, key %q: %d, WWW-Authenticate %q", path, tc.key, resp.StatusCode, got)
			}
		}
	}
}

func TestFetchClean(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article"})
	if resp.StatusCode != 200 {
		t.Fatalf("%d %v", resp.StatusCode, body)
	}
	content, _ := body["content"].(string)
	src, _ := body["source"].(map[string]any)
	sz, _ := body["sizes"].(map[string]any)
	if !strings.Contains(content, "Check the soil with a trowel.") || body["untrusted"] != true || body["mode"] != "clean" ||
		src["status"] != 200.0 || src["final_url"] != origin.URL+"/article" || !strings.HasPrefix(src["hash"].(string), "sha256:") ||
		sz["returned_tokens"].(float64) <= 0 || sz["raw_tokens"].(float64) < sz["clean_tokens"].(float64) {
		t.Fatalf("answer %v", body)
	}
}

func TestFetchOptions(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	tests := []struct {
		name    string
		req     map[string]any
		content string
		warning string
		hint    string
	}{
		{"jq", map[string]any{"url": origin.URL + "/data.json", "jq": ".items[1].name"}, `"nut"`, "", ""},
		{"json_path", map[string]any{"url": origin.URL + "/data.json", "json_path": "items[0].name"}, `"bolt"`, "", ""},
		{"raw", map[string]any{"url": origin.URL + "/data.json", "mode": "raw"}, `{"items":[{"name":"bolt"},{"name":"nut"}]}`, "", ""},
		{"raw text", map[string]any{"url": origin.URL + "/notes.txt", "mode": "raw"}, "Water the ferns on Mondays.\n", "", ""},
		{"grep", map[string]any{"url": origin.URL + "/article", "grep": "trowel"}, "", "", ""},
		{"digest not configured", map[string]any{"url": origin.URL + "/data.json", "mode": "digest"}, "", "digest not configured", ""},
		{"javascript shell", map[string]any{"url": origin.URL + "/shell"}, "", "nearly empty without JavaScript", "browser"},
		{"links", map[string]any{"url": origin.URL + "/article"}, "", "", ""},
		{"no links", map[string]any{"url": origin.URL + "/article", "links": false}, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(t, srv.URL+"/v1/fetch", testKey, tc.req)
			if resp.StatusCode != 200 {
				t.Fatalf("%d %v", resp.StatusCode, body)
			}
			content := body["content"].(string)
			if tc.content != "" && content != tc.content {
				t.Errorf("content %q, want %q", content, tc.content)
			}
			if sz, _ := body["sizes"].(map[string]any); sz["returned_tokens"] == 0.0 && content != "" {
				t.Errorf("returned_tokens 0 for %q", content)
			}
			if tc.name == "grep" && (!strings.Contains(content, "trowel") || strings.Contains(content, "# Irrigation")) {
				t.Errorf("grep kept %q", content)
			}
			if tc.name == "links" && !strings.Contains(content, "[drip guide]("+origin.URL+"/guide)") ||
				tc.name == "no links" && (!strings.Contains(content, "See the drip guide for more.") || strings.Contains(content, "](")) {
				t.Errorf("%s: %q", tc.name, content)
			}
			warnings, _ := json.Marshal(body["warnings"])
			if tc.warning != "" && !strings.Contains(string(warnings), tc.warning) {
				t.Errorf("warnings %s, want %q", warnings, tc.warning)
			}
			if hint, _ := body["hint"].(string); hint != tc.hint {
				t.Errorf("hint %q, want %q", hint, tc.hint)
			}
		})
	}
}

func TestFetchErrors(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	tests := []struct {
		name   string
		body   any
		status int
		prefix string
	}{
		{"blocked", map[string]any{"url": "http://10.0.0.5/"}, 403, "blocked: private address 10.0.0.5"},
		{"blocked port", map[string]any{"url": "http://127.0.0.1:1/"}, 403, "blocked: port 1 not allowed"},
		{"no url", map[string]any{}, 400, "invalid: url is required"},
		{"unknown field", map[string]any{"url": origin.URL, "depth": 2}, 400, `invalid: field "depth": no such field`},
		{"wrong type", map[string]any{"url": origin.URL, "links": "no"}, 400, `invalid: field "links": want true or false, not a string`},
		{"trailing data", `{"url":"` + origin.URL + `"} {"url":"x"}`, 400, "invalid: unexpected data after the JSON object"},
		{"trailing garbage", `{"url":"` + origin.URL + `"}x`, 400, "invalid: unexpected data after the JSON object, at byte "},
		{"an array", `[1]`, 400, "invalid: the body must be a JSON object, not an array"},
		{"null", `null`, 400, "invalid: the body must be a JSON object, not null"},
		{"null amid spaces", " \n null ", 400, "invalid: the body must be a JSON object, not null"},
		{"javascript scheme", map[string]any{"url": "javascript:alert(1)"}, 400, `invalid: url "javascript:alert(1)": scheme "javascript" is not supported`},
		{"bad mode", map[string]any{"url": origin.URL, "mode": "summary"}, 400, "invalid: mode"},
		{"malformed JSON", `{"url":`, 400, "invalid: malformed JSON: the body ends"},
		{"body over the cap", `{"url":"` + strings.Repeat("a", httpapi.MaxRequestBody) + `"}`, 413, "too_large: the request body is 65546 bytes, over the 65536-byte limit"},
		{"origin 404 is an answer, not an error", map[string]any{"url": origin.URL + "/missing", "mode": "raw"}, 200, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(t, srv.URL+"/v1/fetch", testKey, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %v", resp.StatusCode, tc.status, body)
			}
			if msg, _ := body["error"].(string); tc.prefix != "" && !strings.HasPrefix(msg, tc.prefix) {
				t.Errorf("error %q, want it to start %q", msg, tc.prefix)
			}
		})
	}
}

func TestScrape(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	resp, body := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{
		"url": origin.URL + "/article", "formats": []any{"markdown", map[string]any{"type": "html"}},
		"onlyMainContent": true, "origin": "js-sdk@4.42.0", "waitFor": 3000,
	})
	if resp.StatusCode != 200 || body["success"] != true {
		t.Fatalf("%d %v", resp.StatusCode, body)
	}
	data := body["data"].(map[string]any)
	meta := data["metadata"].(map[string]any)
	if !strings.Contains(data["markdown"].(string), "trowel") || !strings.Contains(data["html"].(string), `<a href="`+origin.URL+`/guide">drip guide</a>`) {
		t.Errorf("data %v", data)
	}
	if meta["title"] != "Irrigation" || meta["description"] != "Drip tips" || meta["language"] != "en" || meta["statusCode"] != 200.0 ||
		meta["sourceURL"] != origin.URL+"/article" || meta["url"] != origin.URL+"/article" || meta["contentType"] != "text/html; charset=utf-8" {
		t.Errorf("metadata %v", meta)
	}
	sift := meta["sift"].(map[string]any)
	if sift["cached"] != false || sift["untrusted"] != true || !strings.HasPrefix(sift["hash"].(string), "sha256:") {
		t.Errorf("sift %v", sift)
	}
	_, body = post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/article"})
	if _, hasHTML := body["data"].(map[string]any)["html"]; hasHTML {
		t.Error("html returned without being asked for")
	}
}

func TestScrapeErrors(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	tests := []struct {
		body   any
		status int
		code   string
		prefix string
	}{
		{`{"url":`, 400, "BAD_REQUEST_INVALID_JSON", "Bad Request"},
		{`{"url":"` + origin.URL + `/article"} {"url":"x"}`, 400, "BAD_REQUEST_INVALID_JSON", "Bad Request: unexpected data after the JSON object, at byte"},
		{`[{"url":"x"}]`, 400, "BAD_REQUEST_INVALID_JSON", "Bad Request: the body must be a JSON object, not an array"},
		{`null`, 400, "BAD_REQUEST_INVALID_JSON", "Bad Request: the body must be a JSON object, not null"},
		{map[string]any{"url": "javascript:alert(1)"}, 400, "BAD_REQUEST", `Bad Request: url "javascript:alert(1)": scheme "javascript" is not supported`},
		{map[string]any{"url": origin.URL + "/article", "onlyMainContent": "no"}, 400, "BAD_REQUEST", `Bad Request: field "onlyMainContent": want true or false, not a string`},
		{map[string]any{"formats": []string{"markdown"}}, 400, "BAD_REQUEST", "Bad Request: url is required"},
		{map[string]any{"url": "http://127.0.0.1:1/"}, 403, "", "blocked: "},
		{map[string]any{"url": origin.URL + "/image"}, 400, "UNSUPPORTED", "unsupported: "},
	}
	for _, tc := range tests {
		resp, body := post(t, srv.URL+"/v2/scrape", testKey, tc.body)
		code, _ := body["code"].(string)
		msg, _ := body["error"].(string)
		if resp.StatusCode != tc.status || code != tc.code || !strings.HasPrefix(msg, tc.prefix) || body["success"] != false {
			t.Errorf("%v: %d %v", tc.body, resp.StatusCode, body)
		}
	}
}

// TestGates: one caller's second fetch of a host that is still being
// fetched waits in line and is served once the first ends (with no wait
// allowed it is refused at once: TestGatesCanonicalHost).
func TestGates(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/a" {
			once.Do(func() { close(entered) })
			<-release
		}
		fmt.Fprint(w, "done")
	}))
	defer slow.Close()
	var releaseOnce sync.Once
	free := func() { releaseOnce.Do(func() { close(release) }) }
	defer free() // before slow.Close, which waits for the held handlers
	srv := newTestServer(t, slow, testOptions{GateConfig: &config.Gates{Wait: time.Minute, Queue: config.DefaultGateQueue}})
	done := make(chan int, 2)
	go func() {
		resp, _ := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": slow.URL + "/a", "mode": "raw"})
		done <- resp.StatusCode
	}()
	<-entered
	waited := make(chan int, 1)
	go func() {
		resp, _ := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": slow.URL + "/b"})
		waited <- resp.StatusCode
	}()
	free()
	if s := <-waited; s != 200 {
		t.Errorf("the second fetch, after waiting in line: %d", s)
	}
	<-done // the held fetch ends: done, or its fetch timeout on a loaded machine
}

// TestCachedFetch: with a cache after extract, the second fetch of a page is
// served without touching the origin and says so; a no-store page is
// fetched every time.
func TestCachedFetch(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/private" {
			w.Header().Set("Cache-Control", "no-store")
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "plain words")
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	var sizes []any
	for i, want := range []bool{false, true} {
		_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/page"})
		src := body["source"].(map[string]any)
		if src["cached"] != want || body["content"] != "plain words" {
			t.Fatalf("fetch %d: %v", i+1, body)
		}
		sizes = append(sizes, body["sizes"])
	}
	// The counts made at fetch and extraction travel in the snapshot.
	if want := map[string]any{"raw_tokens": 2.0, "clean_tokens": 2.0, "returned_tokens": 2.0}; !reflect.DeepEqual(sizes[0], want) || !reflect.DeepEqual(sizes[1], want) {
		t.Fatalf("sizes %v, want %v twice", sizes, want)
	}
	if hits.Load() != 1 {
		t.Fatalf("origin hit %d times for one page, want 1", hits.Load())
	}
	// A scrape asks for the page's images, which /v1/fetch does not by
	// default: its own entry, a miss once and a hit after.
	for i, want := range []string{"miss", "hit"} {
		_, body := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/page"})
		meta := body["data"].(map[string]any)["metadata"].(map[string]any)
		if meta["cacheState"] != want || (want == "hit") != (meta["cachedAt"] != nil) {
			t.Fatalf("scrape %d metadata %v, want cacheState %s", i+1, meta, want)
		}
	}
	if hits.Load() != 2 {
		t.Fatalf("origin hit %d times for one page read by both APIs, want 2", hits.Load())
	}
	for range 2 {
		post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/private"})
	}
	if hits.Load() != 4 {
		t.Fatalf("a no-store page was served from the cache (origin hits %d, want 4)", hits.Load())
	}
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{}, `stage "cache" {}`)
	post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": "http://10.9.8.7/secret-path"})
	raw, returned := 0.0, 0.0
	for range 2 {
		_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/article"})
		sizes := body["sizes"].(map[string]any)
		raw += sizes["raw_tokens"].(float64)
		returned += sizes["returned_tokens"].(float64)
	}
	resp, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	text := string(page)
	for _, want := range []string{
		fmt.Sprintf(`sift_tokens_total{caller="agent",kind="raw"} %g`, raw),
		fmt.Sprintf(`sift_tokens_total{caller="agent",kind="returned"} %g`, returned),
		`sift_tokens_returned_ratio_count 2`,
		`sift_guard_refusals_total{caller="agent",rule="private address"} 1`,
		`sift_cache_lookups_total{result="hit"} 1`,
		`sift_cache_lookups_total{result="miss"} 1`,
		`sift_http_requests_total{caller="agent",route="/v1/fetch",status="403"} 1`,
		`sift_http_requests_total{caller="agent",route="/v1/fetch",status="200"} 2`,
		`sift_http_request_duration_seconds_bucket{route="/v1/fetch"`,
		`sift_stage_duration_seconds_count{stage="guard"} 3`,
		`sift_stage_duration_seconds_count{stage="fetch"} 1`,
		`sift_stage_duration_seconds_count{stage="extract"} 1`,
		`sift_stage_duration_seconds_count{stage="cache"} 1`,
		`sift_stage_duration_seconds_bucket{stage="fetch",le=`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	for _, leak := range []string{"10.9.8.7", "secret-path", "127.0.0.1", "/article"} {
		if strings.Contains(text, leak) {
			t.Errorf("/metrics carries %q", leak)
		}
	}
}

// TestRecover: with recover, a failing origin is answered from the newest
// archived snapshot, fetched through the same guard; a refusal never is.
func TestRecover(t *testing.T) {
	t.Parallel()
	// Not a ServeMux: it would clean the "//" of the archived URL away.
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		switch {
		case r.URL.Path == "/down":
			http.Error(w, "oops", 500)
		case r.URL.Path == "/fine":
			fmt.Fprint(w, "live copy")
		case strings.HasPrefix(r.URL.Path, "/web/2id_/http://"):
			fmt.Fprint(w, "archived copy")
		default:
			http.NotFound(w, r)
		}
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{ArchiveURL: origin.URL + "/web/"})

	_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/down", "recover": true})
	src, _ := body["source"].(map[string]any)
	rec, _ := src["recovered"].(map[string]any)
	warnings, _ := json.Marshal(body["warnings"])
	if body["content"] != "archived copy" || rec["from"] != "wayback" || rec["reason"] != "status 500" ||
		src["url"] != origin.URL+"/down" || !strings.Contains(string(warnings), "Wayback Machine snapshot") {
		t.Fatalf("recovered answer %v", body)
	}
	_, body = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/down"})
	if body["source"].(map[string]any)["status"] != 500.0 {
		t.Fatalf("without recover: %v", body)
	}
	_, body = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/fine", "recover": true})
	if body["content"] != "live copy" {
		t.Fatalf("a healthy origin was replaced: %v", body)
	}
	resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": "http://10.0.0.5/", "recover": true})
	if resp.StatusCode != 403 {
		t.Fatalf("a refusal was recovered: %d %v", resp.StatusCode, body)
	}
}

// TestOverload drives far more concurrent fetches than the gates admit:
// those past the line's bound are refused with 429 and Retry-After, nothing fails
// with a 5xx, goroutines come back down, and service is whole afterwards.
func TestOverload(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(200 * time.Millisecond)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "ok")
	}))
	defer slow.Close()
	srv := newTestServer(t, slow, testOptions{Global: 4, PerHost: 2})
	before := runtime.NumGoroutine()
	var mem runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&mem)
	heapBefore := mem.HeapAlloc
	const clients = 64
	statuses := make(chan int, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/fetch",
				strings.NewReader(fmt.Sprintf(`{"url":"%s/%d"}`, slow.URL, i)))
			req.Header.Set("Authorization", "Bearer "+testKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			if resp.StatusCode == 429 && resp.Header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
			resp.Body.Close()
			statuses <- resp.StatusCode
		})
	}
	wg.Wait()
	close(statuses)
	counts := map[int]int{}
	for s := range statuses {
		counts[s]++
	}
	if counts[200] == 0 || counts[429] == 0 || counts[200]+counts[429] != clients {
		t.Fatalf("statuses %v: want only 200s and 429s, some of each", counts)
	}
	http.DefaultClient.CloseIdleConnections()
	testwait.Until(testwait.Deadline, func() bool { return runtime.NumGoroutine() <= before+20 })
	if n := runtime.NumGoroutine(); n > before+20 {
		t.Errorf("%d goroutines after the load, %d before", n, before)
	}
	runtime.GC()
	runtime.ReadMemStats(&mem)
	if grown := int64(mem.HeapAlloc) - int64(heapBefore); grown > 32<<20 {
		t.Errorf("heap grew %d MiB over the load", grown>>20)
	}
	resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": slow.URL + "/after"})
	if resp.StatusCode != 200 || body["content"] != "ok" {
		t.Fatalf("after the load: %d %v", resp.StatusCode, body)
	}
}

// TestSlowClientsDropped: a client that trickles its headers, or holds an
// idle connection, is disconnected at the timeouts instead of keeping the
// connection.
func TestSlowClientsDropped(t *testing.T) {
	t.Parallel()
	api := newTestAPI(t, fixtureOrigin(t), testOptions{})
	hs := api.HTTPServer(Timeouts{ReadHeader: 200 * time.Millisecond, Read: time.Second, Write: time.Second, Idle: 200 * time.Millisecond})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	defer hs.Close()
	for _, tc := range []struct{ name, send string }{
		{"trickled headers", "POST /v1/fetch HTTP/1.1\r\nHost: x\r\n"},
		{"idle connection", ""},
	} {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		conn.Write([]byte(tc.send))
		// Held past 20 s, it was not the 200 ms timeouts that closed it.
		conn.SetReadDeadline(time.Now().Add(testwait.Deadline))
		_, err = io.ReadAll(conn)
		conn.Close()
		if err != nil || time.Since(start) > 20*time.Second {
			t.Errorf("%s: connection held %s (err %v), want it closed at the timeout", tc.name, time.Since(start), err)
		}
	}
}

// TestFetchPDF: a PDF through /v1/fetch (with pages) and /v2/scrape
// (numPages); a scan read with ocr: never answers no_text with the OCR
// hint (TestFetchScan reads one by OCR).
func TestFetchPDF(t *testing.T) {
	t.Parallel()
	corpus := filepath.Join("..", "plugins", "pdf", "testdata")
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := os.ReadFile(filepath.Join(corpus, filepath.Base(r.URL.Path)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(body)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	_, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/pdfjs-TAMReview.pdf", "pages": "2"})
	content, _ := body["content"].(string)
	if !strings.HasPrefix(content, "<!-- page 2 -->") || strings.Contains(content, "<!-- page 3 -->") ||
		body["metadata"].(map[string]any)["pages"] != "23" {
		t.Fatalf("fetch %.300v", body)
	}
	_, body = post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/pdfjs-TAMReview.pdf"})
	if meta := body["data"].(map[string]any)["metadata"].(map[string]any); meta["numPages"] != 23.0 {
		t.Fatalf("scrape metadata %v", meta)
	}
	resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/pdfjs-issue12213.pdf", "ocr": "never"})
	if resp.StatusCode != http.StatusUnprocessableEntity || body["hint"] != "ocr" || !strings.HasPrefix(body["error"].(string), "no_text:") ||
		!strings.Contains(body["error"].(string), `ocr: "never"`) {
		t.Fatalf("scan, ocr never: %d %v", resp.StatusCode, body)
	}
	resp, body = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/pdfjs-issue12213.pdf", "ocr": "sometimes"})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body["error"].(string), "want auto, always or never") {
		t.Fatalf("ocr sometimes: %d %v", resp.StatusCode, body)
	}
	resp, body = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/blank-drawing.pdf"})
	if _, hinted := body["hint"]; resp.StatusCode != http.StatusUnprocessableEntity || hinted || !strings.HasPrefix(body["error"].(string), "empty:") {
		t.Fatalf("a PDF with neither text nor images: %d %v", resp.StatusCode, body)
	}
	resp, body = post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": origin.URL + "/pdfjs-TAMReview.pdf", "pages": "30"})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body["error"].(string), "past the last page") {
		t.Fatalf("pages 30 of 23: %d %v", resp.StatusCode, body)
	}
}

// TestFetchOptionNotForThisDocument: a field that becomes an option the
// document's extractor does not take (jq or pages on a web page, links on
// JSON) is named in a warning rather than ignored in silence; one it takes
// is not.
func TestFetchOptionNotForThisDocument(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	for _, tc := range []struct {
		body map[string]any
		want string // "" for no warning
	}{
		{map[string]any{"url": origin.URL + "/article", "jq": ".items"}, "not applied: jq (the html extractor, which read this text/html document, takes no such option)"},
		{map[string]any{"url": origin.URL + "/article", "json_path": "items", "pages": "1-2"}, "not applied: json_path, pages (the html extractor"},
		{map[string]any{"url": origin.URL + "/data.json", "links": false}, "not applied: links (the json extractor"},
		{map[string]any{"url": origin.URL + "/data.json", "images": true}, "not applied: images (the json extractor"},
		{map[string]any{"url": origin.URL + "/article", "images": true}, ""},
		{map[string]any{"url": origin.URL + "/data.json", "jq": ".items[0]"}, ""},
		{map[string]any{"url": origin.URL + "/article", "links": false}, ""},
	} {
		resp, out := post(t, srv.URL+"/v1/fetch", testKey, tc.body)
		if resp.StatusCode != 200 {
			t.Fatalf("%v: %d %v", tc.body, resp.StatusCode, out)
		}
		warnings := fmt.Sprint(out["warnings"])
		if tc.want == "" && strings.Contains(warnings, "not applied") || !strings.Contains(warnings, tc.want) {
			t.Errorf("%v: warnings %s, want %q", tc.body, warnings, tc.want)
		}
	}
	_, out := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/article",
		"parsers": []any{map[string]any{"type": "pdf", "maxPages": 2}}})
	if w := fmt.Sprint(out["data"].(map[string]any)["warning"]); !strings.Contains(w, "not applied: parsers maxPages (the html extractor") {
		t.Errorf("scrape with maxPages of a web page: warning %q", w)
	}
	// A scrape's images, on by default, are no field of the caller's: a
	// JSON document does not warn of them; removeBase64Images false is.
	_, out = post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/data.json"})
	if w := fmt.Sprint(out["data"].(map[string]any)["warning"]); strings.Contains(w, "not applied") {
		t.Errorf("scrape of JSON: warning %q", w)
	}
	_, out = post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + "/data.json", "removeBase64Images": false})
	if w := fmt.Sprint(out["data"].(map[string]any)["warning"]); !strings.Contains(w, "not applied: removeBase64Images (the json extractor") {
		t.Errorf("scrape of JSON with removeBase64Images false: warning %q", w)
	}
}

// TestPDFModeIsForPDFsOnly: a pdf parser's mode is a PDF's ocr option
// and no other document's: an image a scrape with mode fast fetches is
// still read by OCR (it was a 400 NO_TEXT, ocr never applied to it), while
// the same request's scan still reads its text layer only.
func TestPDFModeIsForPDFsOnly(t *testing.T) {
	t.Parallel()
	testenv.NeedCommand(t, "tesseract", "apt-get install tesseract-ocr tesseract-ocr-eng")
	files := map[string]struct{ path, contentType string }{
		"/title.png": {filepath.Join("..", "plugins", "ocr", "testdata", "title.png"), "image/png"},
		"/scan.pdf":  {filepath.Join("..", "plugins", "pdf", "testdata", "pdfjs-issue12213.pdf"), "application/pdf"},
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := files[r.URL.Path]
		body, err := os.ReadFile(f.path)
		if !ok || err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", f.contentType)
		w.Write(body)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	fast := []any{map[string]any{"type": "pdf", "mode": "fast"}}
	for _, tc := range []struct {
		path, want string
		status     int
	}{
		{"/title.png", "Technology Acceptance", http.StatusOK},
		{"/scan.pdf", "", http.StatusBadRequest},
	} {
		resp, body := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": origin.URL + tc.path, "maxAge": 0, "parsers": fast})
		if resp.StatusCode != tc.status {
			t.Errorf("%s with mode fast: %d %v", tc.path, resp.StatusCode, body)
			continue
		}
		if data, _ := body["data"].(map[string]any); tc.want != "" && !strings.Contains(fmt.Sprint(data["markdown"]), tc.want) {
			t.Errorf("%s with mode fast: %v", tc.path, body)
		}
		if code, _ := body["code"].(string); tc.status != http.StatusOK && code != "NO_TEXT" {
			t.Errorf("%s with mode fast: %v", tc.path, body)
		}
	}
}

// TestFetchScan: a scan is read by OCR through /v1/fetch (ocr auto, the
// default) with the warning that says so and its confidence, and
// /v2/scrape honours a pdf parser's mode: fast reads the text layer only
// (the scan's 400 NO_TEXT), auto and ocr read it by OCR.
func TestFetchScan(t *testing.T) {
	t.Parallel()
	testenv.NeedCommand(t, "tesseract", "apt-get install tesseract-ocr tesseract-ocr-eng")
	corpus := filepath.Join("..", "plugins", "pdf", "testdata")
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := os.ReadFile(filepath.Join(corpus, filepath.Base(r.URL.Path)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(body)
	}))
	defer origin.Close()
	srv := newTestServer(t, origin, testOptions{})
	scan := origin.URL + "/pdfjs-issue12213.pdf"
	resp, body := post(t, srv.URL+"/v1/fetch", testKey, map[string]any{"url": scan})
	warnings, _ := body["warnings"].([]any)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body["content"].(string), "california") ||
		len(warnings) == 0 || !strings.Contains(warnings[0].(string), "page 1 read by OCR (tesseract") {
		t.Fatalf("scan: %d %v", resp.StatusCode, body)
	}
	for _, tc := range []struct {
		mode   string
		status int
	}{{"fast", http.StatusBadRequest}, {"auto", http.StatusOK}, {"ocr", http.StatusOK}} {
		resp, body := post(t, srv.URL+"/v2/scrape", testKey, map[string]any{"url": scan, "maxAge": 0,
			"parsers": []any{map[string]any{"type": "pdf", "mode": tc.mode}}})
		if resp.StatusCode != tc.status {
			t.Errorf("mode %s: %d %v", tc.mode, resp.StatusCode, body)
			continue
		}
		if data, _ := body["data"].(map[string]any); tc.status == http.StatusOK && !strings.Contains(data["markdown"].(string), "california") {
			t.Errorf("mode %s: %v", tc.mode, body)
		}
		if code, _ := body["code"].(string); tc.status != http.StatusOK && code != "NO_TEXT" {
			t.Errorf("mode %s: %v", tc.mode, body)
		}
	}
}
