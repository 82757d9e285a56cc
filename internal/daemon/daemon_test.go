package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/html"
)

// testConfig has one caller holding key, and every extractor in process.
func testConfig(t *testing.T, dir, key, extra string) *config.Config {
	t.Helper()
	sum := sha256.Sum256([]byte(key))
	src := fmt.Sprintf(`data_dir = %q
caller "c" {
  key_sha256 = %q
}
extractor "html" {
  isolation = "none"
}
extractor "json" {
  isolation = "none"
}
extractor "text" {
  isolation = "none"
}
extractor "pdf" {
  isolation = "none"
}
%s`, dir, hex.EncodeToString(sum[:]), extra)
	cfg, diags := config.Parse([]byte(src), "test.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg
}

func healthStatus(t *testing.T, url, key string) int {
	req, _ := http.NewRequest(http.MethodGet, url+"/healthz", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return 0
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `"stages"`) {
		return http.StatusUnauthorized // the detail is for callers only
	}
	return resp.StatusCode
}

// TestReloadUnderLoad: requests keep being answered while the
// configuration is swapped again and again (run with -race), the last
// configuration's caller is the one served, and Close closes every
// generation.
func TestReloadUnderLoad(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	opts := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Extractors: host.Builtins{"html": html.New}}
	d, diags := New(ctx, testConfig(t, dir, "key-0", ""), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	srv := httptest.NewServer(d)
	defer srv.Close()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				req, _ := http.NewRequest(http.MethodGet, srv.URL+"/healthz", nil)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Errorf("during a reload: %d", resp.StatusCode)
					return
				}
			}
		})
	}
	const reloads = 3
	for i := 1; i <= reloads; i++ {
		if diags := d.Reload(ctx, testConfig(t, dir, fmt.Sprintf("key-%d", i), "")); diags.HasErrors() {
			t.Fatal(diags)
		}
	}
	close(stop)
	wg.Wait()
	if got := healthStatus(t, srv.URL, fmt.Sprintf("key-%d", reloads)); got != http.StatusOK {
		t.Fatalf("the last configuration's caller: %d", got)
	}
	if got := healthStatus(t, srv.URL, "key-0"); got != http.StatusUnauthorized {
		t.Fatalf("the first configuration's caller: %d", got)
	}
	closeCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := d.Close(closeCtx); err != nil {
		t.Fatal(err)
	}
}

// TestReloadRefusesAndWarns: a configuration with errors changes nothing;
// a changed data_dir is a warning and keeps the running one.
func TestReloadRefusesAndWarns(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	opts := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Extractors: host.Builtins{"html": html.New}}
	d, diags := New(ctx, testConfig(t, dir, "key-0", ""), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	defer d.Close(context.Background())
	srv := httptest.NewServer(d)
	defer srv.Close()

	bad := testConfig(t, dir, "key-1", `pipeline {
  stage "guard" {}
  stage "fetch" {
    max_body = "lots"
  }
  stage "extract" {}
}`)
	if diags := d.Reload(ctx, bad); !diags.HasErrors() {
		t.Fatal("a fetch block with a bad max_body was accepted")
	}
	if got := healthStatus(t, srv.URL, "key-0"); got != http.StatusOK {
		t.Fatalf("the running caller after a refused reload: %d", got)
	}

	moved := testConfig(t, t.TempDir(), "key-2", "")
	diags = d.Reload(ctx, moved)
	warned := slices.ContainsFunc(diags, func(d *hcl.Diagnostic) bool { return strings.Contains(d.Detail, "data_dir") })
	if diags.HasErrors() || !warned {
		t.Fatalf("a moved data_dir: %v", diags)
	}
	if moved.DataDir != dir {
		t.Fatalf("the new configuration reports data_dir %q, running %q", moved.DataDir, dir)
	}
	if got := healthStatus(t, srv.URL, "key-2"); got != http.StatusOK {
		t.Fatalf("the new caller: %d", got)
	}
}

// TestReloadWithCacheStage: each configuration with a cache stage hands
// its figures to the metrics; reloading one, again and again, swaps them
// (it once registered a second collector and panicked), and a reload to a
// chain without a cache drops the series.
func TestReloadWithCacheStage(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	m := metrics.New()
	opts := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Extractors: host.Builtins{"html": html.New}, Metrics: m}
	cached := `pipeline {
  stage "guard" {}
  stage "fetch" {}
  stage "extract" {}
  stage "cache" {}
}`
	d, diags := New(ctx, testConfig(t, dir, "key-0", cached), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	defer d.Close(context.Background())
	srv := httptest.NewServer(d)
	defer srv.Close()
	for i := 1; i <= 3; i++ {
		if diags := d.Reload(ctx, testConfig(t, dir, fmt.Sprintf("key-%d", i), cached)); diags.HasErrors() {
			t.Fatal(diags)
		}
		if page := scrape(t, srv.URL); !strings.Contains(page, `sift_cache_entries{stage="4"}`) {
			t.Fatalf("reload %d: no cache series:\n%s", i, page)
		}
	}
	// The chain written out without its cache: a file without a pipeline
	// block is refused while the running one has one.
	uncached := `pipeline {
  stage "guard" {}
  stage "fetch" {}
  stage "extract" {}
}`
	if diags := d.Reload(ctx, testConfig(t, dir, "key-9", uncached)); diags.HasErrors() {
		t.Fatal(diags)
	}
	if page := scrape(t, srv.URL); strings.Contains(page, "sift_cache_entries") {
		t.Fatal("the cache series outlived the cache stage")
	}
}

func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}

// TestSeriesAtZeroFromStart: before any request, the gate-wait and
// per-stage duration series are there at zero, so a rate over them works
// from the first scrape.
func TestSeriesAtZeroFromStart(t *testing.T) {
	opts := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Extractors: host.Builtins{"html": html.New}, Metrics: metrics.New()}
	d, diags := New(context.Background(), testConfig(t, t.TempDir(), "key-0", ""), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	defer d.Close(context.Background())
	srv := httptest.NewServer(d)
	defer srv.Close()
	page := scrape(t, srv.URL)
	for _, want := range []string{
		`sift_gate_wait_seconds_count{outcome="admitted"} 0`,
		`sift_gate_wait_seconds_count{outcome="refused"} 0`,
		`sift_stage_duration_seconds_count{stage="guard"} 0`,
		`sift_stage_duration_seconds_count{stage="extract"} 0`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestExtractFilteredOut: a page whose type the extract stage's
// content_types leave out is unsupported (415), named as such; it once
// answered 501 "the pipeline has no extract stage".
func TestExtractFilteredOut(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><p>hello</p></body></html>")
	}))
	defer origin.Close()
	_, port, _ := strings.Cut(strings.TrimPrefix(origin.URL, "http://"), ":")
	chain := fmt.Sprintf(`pipeline {
  stage "guard" {
    allow_cidrs = ["127.0.0.0/8"]
    allow_ports = [%s]
  }
  stage "fetch" {}
  stage "extract" {
    content_types = ["application/json"]
  }
}`, port)
	opts := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Extractors: host.Builtins{"html": html.New}}
	d, diags := New(context.Background(), testConfig(t, t.TempDir(), "key-0", chain), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	defer d.Close(context.Background())
	srv := httptest.NewServer(d)
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/fetch", strings.NewReader(`{"url":"`+origin.URL+`/"}`))
	req.Header.Set("Authorization", "Bearer key-0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusUnsupportedMediaType || !strings.Contains(string(body), "content_types leave it out") {
		t.Fatalf("%d %s; want 415 naming the extract stage's content_types", resp.StatusCode, body)
	}
}
