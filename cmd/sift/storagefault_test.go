package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/siftd/sift/internal/testkit/diskfault"
	"github.com/siftd/sift/internal/testkit/pgtest"
	"github.com/siftd/sift/internal/testkit/testenv"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// storeSift writes a configuration of one caller ("key-0") with a cache
// after extract and the store block given, starts sift with env and
// returns its address.
func storeSift(t *testing.T, origin string, dataDir, cacheBody, storeBlock string, env ...string) *served {
	t.Helper()
	port := netip.MustParseAddrPort(strings.TrimPrefix(origin, "http://")).Port()
	addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	sum := sha256.Sum256([]byte("key-0"))
	cfg := filepath.Join(t.TempDir(), "config.hcl")
	src := fmt.Sprintf(`listen   = %q
data_dir = %q
%s
caller "c0" {
  key_sha256 = %q
}
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {}
  stage "extract" {}
  stage "cache" {
    %s
  }
}
%s`, addr, dataDir, storeBlock, hex.EncodeToString(sum[:]), port, cacheBody, patientExtractors(""))
	if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return startSift(t, cfg, addr, env...)
}

// call sends a request as caller key-0 and returns the status, the
// Retry-After header and the body.
func call(t *testing.T, addr, method, path, body string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer key-0")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(b)
}

// fetchWarnings fetches url through /v1/fetch, fails the test unless it
// answers 200 with content, and returns the answer's warnings.
func fetchWarnings(t *testing.T, addr, url string) []string {
	t.Helper()
	status, _, body := call(t, addr, "POST", "/v1/fetch", `{"url": "`+url+`"}`)
	var ans struct {
		Content  string   `json:"content"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(body), &ans); status != http.StatusOK || err != nil || ans.Content == "" {
		t.Fatalf("fetch %s: %d %s", url, status, body)
	}
	return ans.Warnings
}

// database is what /healthz, asked with a key, says of the database.
func database(t *testing.T, addr string) (int, string) {
	t.Helper()
	status, _, body := call(t, addr, "GET", "/healthz", "")
	var h struct {
		Deps struct {
			Database string `json:"database"`
		} `json:"dependencies"`
	}
	if err := json.Unmarshal([]byte(body), &h); err != nil {
		t.Fatalf("/healthz: %d %s", status, body)
	}
	return status, h.Deps.Database
}

// TestPostgresRestartCostsNoFetch: while its PostgreSQL is down, every
// fetch still answers 200 (uncached, with a warning), /healthz stays 200
// and says the store is degraded, batch calls answer 503 unavailable with
// Retry-After, and nothing names the database's address, port or user;
// once it is back, the same sift caches again.
func TestPostgresRestartCostsNoFetch(t *testing.T) {
	pg := pgtest.New(t)
	dsn, err := pg.CreateDB("sift")
	if err != nil {
		t.Fatal(err)
	}
	origin := fixturePages(t)
	s := storeSift(t, origin.URL, t.TempDir(), "", "store {\n  driver  = \"postgres\"\n  dsn_env = \"SIFT_DSN\"\n}", "SIFT_DSN="+dsn)
	if w := fetchWarnings(t, s.Addr, origin.URL+"/a.html"); len(w) != 0 {
		t.Fatalf("warnings before the outage: %q", w)
	}

	pg.Down(t)
	pgPort := regexp.MustCompile(`port=(\d+)`).FindStringSubmatch(dsn)[1]
	secrets := []string{pgPort, "user=", "postgres", "dbname", "sift "}
	noSecrets := func(what, body string) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(body, s) {
				t.Errorf("%s shows %q: %s", what, s, body)
			}
		}
	}
	// a.html is in this instance's memory of the cache: a hit, outage or
	// not. The others are misses whose reads and writes fail.
	if w := fetchWarnings(t, s.Addr, origin.URL+"/a.html"); len(w) != 0 {
		t.Errorf("a hit from memory in the outage warned %q", w)
	}
	for i, page := range []string{"b", "c", "d", "e", "f"} {
		w := fetchWarnings(t, s.Addr, origin.URL+"/"+page+".html")
		if !strings.Contains(strings.Join(w, "\n"), "storage unavailable (unreachable)") {
			t.Errorf("fetch %d in the outage: warnings %q, want a skipped cache read or write", i, w)
		}
		noSecrets("a fetch's warnings", strings.Join(w, "\n"))
	}
	status, db := database(t, s.Addr)
	if status != http.StatusOK || !strings.HasPrefix(db, "degraded: unreachable") {
		t.Errorf("/healthz in the outage: %d database %q, want 200 and degraded: unreachable", status, db)
	}
	noSecrets("/healthz", db)
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/v1/batch", `{"targets": [{"url": "` + origin.URL + `/b.html"}]}`},
		{"GET", "/v1/batch/00000000000000000000000000000000", ""}, // a job id's length
	} {
		status, retry, body := call(t, s.Addr, c.method, c.path, c.body)
		if status != http.StatusServiceUnavailable || retry == "" || !strings.Contains(body, "unavailable: storage unavailable") {
			t.Errorf("%s %s in the outage: %d Retry-After %q %s, want 503 unavailable with Retry-After", c.method, c.path, status, retry, body)
		}
		noSecrets(c.method+" "+c.path, body)
	}
	skipped := sumSamples(scrapeMetrics(t, s.Addr), `sift_cache_skipped_total{op="(read|write)",reason="unreachable",stage="4"}`)
	if skipped < 5 {
		t.Errorf("sift_cache_skipped_total counted %v reads and writes skipped, want at least 5", skipped)
	}
	t.Logf("outage: 5 of 5 fetches answered 200; %v cache reads and writes skipped", skipped)

	pg.Up(t)
	testwait.For(t, "a fetch to be cached again", func() bool {
		return len(fetchWarnings(t, s.Addr, origin.URL+"/g.html")) == 0
	})
	if status, db := database(t, s.Addr); status != http.StatusOK || db != "ok" {
		t.Errorf("/healthz after the outage: %d %q", status, db)
	}
}

// sumSamples adds up the samples of every series matching the pattern
// (a regular expression over the series' name and labels).
func sumSamples(page, pattern string) float64 {
	var sum float64
	for _, m := range regexp.MustCompile(`(?m)^`+pattern+` (\S+)$`).FindAllStringSubmatch(page, -1) {
		var v float64
		fmt.Sscan(m[len(m)-1], &v)
		sum += v
	}
	return sum
}

// smallDisk mounts a tmpfs of size bytes for data_dir, or skips.
func smallDisk(t *testing.T, size int64) *diskfault.Disk {
	t.Helper()
	disk, err := diskfault.Small(t, size)
	if errors.Is(err, diskfault.ErrCannotMount) {
		testenv.Missing(t, "a tmpfs to fill (mount, as root)", "run the tests as root")
	}
	if err != nil {
		t.Fatal(err)
	}
	return disk
}

// TestFullDiskAnswersEveryFetch: with data_dir's disk full (a real tmpfs,
// min_free off), every fetch answers 200 with a warning that its cache
// write was skipped, the skips are counted, and /healthz says the store is
// degraded: disk_full; once there is room again, fetches are cached.
func TestFullDiskAnswersEveryFetch(t *testing.T) {
	disk := smallDisk(t, 16<<20)
	origin := fixturePages(t)
	s := storeSift(t, origin.URL, disk.Dir, `min_free = "0"`, "")
	if w := fetchWarnings(t, s.Addr, origin.URL+"/first.html"); len(w) != 0 {
		t.Fatalf("warnings before the disk filled: %q", w)
	}
	disk.Fill(t)
	const n = 20
	warned := 0
	for i := range n {
		w := fetchWarnings(t, s.Addr, fmt.Sprintf("%s/full%d.html", origin.URL, i))
		if strings.Contains(strings.Join(w, "\n"), "cache write skipped: storage unavailable (disk full)") {
			warned++
		}
	}
	if warned != n {
		t.Errorf("%d of %d fetches on a full disk warned of a skipped cache write", warned, n)
	}
	status, db := database(t, s.Addr)
	if status != http.StatusOK || !strings.HasPrefix(db, "degraded: disk_full") {
		t.Errorf("/healthz on a full disk: %d database %q", status, db)
	}
	skipped := sumSamples(scrapeMetrics(t, s.Addr), `sift_cache_skipped_total{op="write",reason="disk_full",stage="4"}`)
	if skipped != n {
		t.Errorf("sift_cache_skipped_total{op=write,reason=disk_full} = %v, want %d", skipped, n)
	}
	t.Logf("full disk: %d of %d fetches answered 200, each warned; %v writes skipped; /healthz database %q", n, n, skipped, db)

	disk.Free(t)
	testwait.For(t, "a fetch to be cached again", func() bool {
		return len(fetchWarnings(t, s.Addr, origin.URL+"/after.html")) == 0
	})
	if _, db := database(t, s.Addr); db != "ok" {
		t.Errorf("/healthz with room again: database %q", db)
	}
}

// TestMinFreeKeepsTheCacheOffAFullDisk: with data_dir's disk below the
// cache's min_free, the cache stores nothing (each answer says so) and the
// disk keeps its room; the cache never fills it.
func TestMinFreeKeepsTheCacheOffAFullDisk(t *testing.T) {
	disk := smallDisk(t, 24<<20)
	origin := fixturePages(t)
	s := storeSift(t, origin.URL, disk.Dir, `min_free = "8MiB"`, "")
	// Leave 6 MiB: room for the cache, but below min_free.
	filler := filepath.Join(disk.Dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	for freeOf(t, disk.Dir) > 6<<20 {
		if _, err := f.Write(make([]byte, 256<<10)); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	probes := 0
	testwait.For(t, "a fetch to say the cache is below min_free", func() bool {
		probes++ // a new page each time: a page stored before is a hit
		w := fetchWarnings(t, s.Addr, fmt.Sprintf("%s/probe%d.html", origin.URL, probes))
		return strings.Contains(strings.Join(w, "\n"), "cache write skipped: data_dir below min_free")
	})
	before := freeOf(t, disk.Dir)
	for i := range 20 {
		w := fetchWarnings(t, s.Addr, fmt.Sprintf("%s/floor%d.html", origin.URL, i))
		if !strings.Contains(strings.Join(w, "\n"), "data_dir below min_free") {
			t.Errorf("fetch %d below min_free: warnings %q", i, w)
		}
	}
	if _, db := database(t, s.Addr); !strings.HasPrefix(db, "degraded: min_free") {
		t.Errorf("/healthz below min_free: database %q", db)
	}
	after := freeOf(t, disk.Dir)
	t.Logf("below min_free: free %d KiB before 20 fetches, %d KiB after", before>>10, after>>10)
	if after < before-(256<<10) {
		t.Errorf("20 fetches below min_free used %d KiB of the disk", (before-after)>>10)
	}
}

// freeOf is the free space of dir's file system.
func freeOf(t *testing.T, dir string) int64 {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Bavail) * int64(st.Bsize)
}
