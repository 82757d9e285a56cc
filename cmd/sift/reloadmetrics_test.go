package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/siftd/sift/internal/testkit/testwait"
)

// scrapeMetrics reads sift's /metrics.
func scrapeMetrics(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
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

// sample is the value of the series a scrape prints as name (with its
// labels), or NaN's stand-in -1 when it has none.
func sample(page, name string) float64 {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\S+)$`).FindStringSubmatch(page)
	if m == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

// TestReloadMetrics drives the real binary: after the start
// sift_config_last_reload_successful is 1 with the time of the load; a
// refused SIGHUP sets it to 0 and keeps the time; a good one sets 1 and a
// later time. sift_build_info names the build.
func TestReloadMetrics(t *testing.T) {
	addr, cfg, write := reloadFixture(t)
	write("")
	serve := startSift(t, cfg, addr)
	const ok, at = "sift_config_last_reload_successful", "sift_config_last_reload_success_timestamp_seconds"
	page := scrapeMetrics(t, addr)
	started := sample(page, at)
	if sample(page, ok) != 1 || started <= 0 {
		t.Fatalf("after the start: %s %v, %s %v", ok, sample(page, ok), at, started)
	}
	build := regexp.MustCompile(`sift_build_info\{goversion="` + regexp.QuoteMeta(runtime.Version()) + `",revision="[^"]+",version="[^"]+"\} 1`)
	if !build.MatchString(page) {
		t.Errorf("no sift_build_info for %s:\n%s", runtime.Version(), grepLines(page, "sift_build_info"))
	}

	reloads := func(want string, n int) {
		t.Helper()
		if err := serve.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		testwait.For(t, want, func() bool { return strings.Count(serve.Logs.String(), want) == n })
	}
	write("no_such_setting = 1\n")
	reloads("reload refused", 1)
	// The log line comes a moment before the metric is set.
	testwait.For(t, "the refused reload in /metrics", func() bool { page = scrapeMetrics(t, addr); return sample(page, ok) == 0 })
	if sample(page, ok) != 0 || sample(page, at) != started {
		t.Errorf("after a refused reload: %s %v, %s %v (the start's %v)", ok, sample(page, ok), at, sample(page, at), started)
	}

	write("")
	reloads("configuration reloaded", 1)
	testwait.For(t, "the good reload in /metrics", func() bool {
		page = scrapeMetrics(t, addr)
		return sample(page, ok) == 1 && sample(page, at) > started
	})
	if sample(page, ok) != 1 || sample(page, at) <= started {
		t.Errorf("after a good reload: %s %v, %s %v (the start's %v)", ok, sample(page, ok), at, sample(page, at), started)
	}
}

// grepLines is the lines of text that contain s.
func grepLines(text, s string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestReloadRefusesMemoryTooSmall: a SIGHUP with an extractor block whose
// memory its process cannot run in is refused, as validate refuses it,
// every time: the pool's start alone let some through (3 of 15 in a
// trial), when its first process had not yet died.
func TestReloadRefusesMemoryTooSmall(t *testing.T) {
	addr, cfg, write := reloadFixture(t)
	write("")
	serve := startSift(t, cfg, addr)
	write("extractor \"pdf\" {\n  memory = \"96MiB\"\n}\n")
	if err := serve.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, "the reload's outcome", func() bool {
		logs := serve.Logs.String()
		return strings.Contains(logs, "reload refused") || strings.Contains(logs, "configuration reloaded")
	})
	logs := serve.Logs.String()
	if !strings.Contains(logs, "reload refused") || !strings.Contains(logs, "Extractor does not run within its memory") {
		t.Fatalf("a pdf block of 96MiB was not refused with its reason:\n%s", logs)
	}
}

// reloadFixture picks a free address and a config file in a new directory
// for a reload test; write rewrites the file with extra blocks appended.
func reloadFixture(t *testing.T) (addr, cfg string, write func(extra string)) {
	t.Helper()
	addr = fmt.Sprintf("127.0.0.1:%d", freePort(t))
	dir := t.TempDir()
	cfg = filepath.Join(dir, "config.hcl")
	write = func(extra string) {
		t.Helper()
		if err := os.WriteFile(cfg, []byte(reloadConfig(addr, dir, 8080, "c", "key", extra)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return addr, cfg, write
}
