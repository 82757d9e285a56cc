package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/siftd/sift/internal/testkit/pgtest"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// cluster is several `sift serve` processes on one PostgreSQL.
type cluster struct {
	addrs []string
	cmds  []*served
	dsn   string
}

// startCluster starts n instances sharing one fresh database, with callers
// c0…c9 (keys key-0…key-9), two batch workers each and a 3 s claim lease.
func startCluster(t testing.TB, origin *httptest.Server, n int) *cluster {
	t.Helper()
	dsn, err := pgtest.New(t).CreateDB("sift")
	if err != nil {
		t.Fatal(err)
	}
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	var callers strings.Builder
	for i := range 10 {
		sum := sha256.Sum256([]byte(fmt.Sprintf("key-%d", i)))
		fmt.Fprintf(&callers, "caller \"c%d\" {\n  key_sha256 = %q\n}\n", i, hex.EncodeToString(sum[:]))
	}
	c := &cluster{dsn: dsn}
	for range n {
		addr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
		dir := t.TempDir()
		src := fmt.Sprintf(`listen   = %q
data_dir = %q
store {
  driver  = "postgres"
  dsn_env = "SIFT_DSN"
}
%s
pipeline {
  stage "guard" {
    allow_ports = [80, 443, %d]
    allow_cidrs = ["127.0.0.0/8"]
  }
  stage "fetch" {}
  stage "extract" {}
  stage "cache" {}
}
batch {
  workers     = 2
  jobs_total  = 10
  claim_lease = "3s"
}
`, addr, dir, callers.String(), port)
		cfg := filepath.Join(dir, "config.hcl")
		if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		c.addrs, c.cmds = append(c.addrs, addr), append(c.cmds, startSift(t, cfg, addr, "SIFT_DSN="+dsn))
	}
	return c
}

// TestCacheSharedAcrossInstances: a page fetched through one instance is
// served from the cache by another.
func TestCacheSharedAcrossInstances(t *testing.T) {
	origin := newCountingOrigin(t, 0)
	c := startCluster(t, origin.Server, 2)
	first := batchCall(t, "POST", "http://"+c.addrs[0]+"/v1/fetch", "key-1", `{"url": "`+origin.URL+`/shared"}`)
	second := batchCall(t, "POST", "http://"+c.addrs[1]+"/v1/fetch", "key-2", `{"url": "`+origin.URL+`/shared"}`)
	if first["source"].(map[string]any)["cached"] != false || second["source"].(map[string]any)["cached"] != true ||
		second["content"] != first["content"] || origin.Hits()["/shared"] != 1 {
		t.Fatalf("first %v\nsecond %v\norigin hits %d", first["source"], second["source"], origin.Hits()["/shared"])
	}
}

// TestBatchAcrossInstancesSurvivesSIGKILL: three instances on one
// PostgreSQL drain ten jobs of 31 targets submitted through all three;
// one is SIGKILLed mid-run. Every target ends done or failed with a
// reason, no origin path is fetched twice except targets claimed again
// after the kill, and the caps hold throughout.
func TestBatchAcrossInstancesSurvivesSIGKILL(t *testing.T) {
	origin := newCountingOrigin(t, 20*time.Millisecond) // pages answer like a network: the run lasts seconds
	c := startCluster(t, origin.Server, 3)
	db, err := gorm.Open(postgres.Open(c.dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	stop, violations := sampleCaps(t, db)

	const jobs, perJob = 10, 31
	ids := make([]string, jobs)
	for j := range jobs {
		var ts []string
		for i := range perJob {
			ts = append(ts, fmt.Sprintf(`{"url": "%s/j%d/t%d"}`, origin.URL, j, i))
		}
		addr := c.addrs[j%3]
		ids[j] = batchCall(t, "POST", "http://"+addr+"/v1/batch", fmt.Sprintf("key-%d", j), `{"targets": [`+strings.Join(ts, ",")+`]}`)["job_id"].(string)
		if j == 0 {
			// c0's job takes at least 31 × 20 ms: still live. The cap of
			// one live job per caller holds through another instance.
			resp := rawCall(t, "POST", "http://"+c.addrs[1]+"/v1/batch", "key-0", `{"targets": [{"url": "`+origin.URL+`/other"}]}`)
			if resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("a second live job of c0 through another instance: %d", resp.StatusCode)
			}
		}
	}

	testwait.For(t, "60 fetches", func() bool { return totalHits(origin) >= 60 })
	if err := c.cmds[0].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = c.cmds[0].Wait()
	killedAt := totalHits(origin)

	for j, id := range ids {
		waitFinished(t, c.addrs[1+j%2], fmt.Sprintf("key-%d", j), id)
	}
	stop()
	if v := violations(); len(v) > 0 {
		t.Fatalf("caps broken: %v", v)
	}
	var rows []struct {
		JobID, URL, Status, Error string
		Attempts                  int
	}
	if err := db.Table("batch_targets").Select("job_id, url, status, error, attempts").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	hits := origin.Hits()
	reclaimed := 0
	for _, r := range rows {
		path := strings.TrimPrefix(r.URL, origin.URL)
		switch {
		case r.Status != "done" && r.Status != "failed":
			t.Errorf("%s ended %s", path, r.Status)
		case r.Status == "failed" && r.Error == "":
			t.Errorf("%s failed without a reason", path)
		case hits[path] > 1 && r.Attempts < 2:
			t.Errorf("%s fetched %d times but claimed %d", path, hits[path], r.Attempts)
		case hits[path] > 2:
			t.Errorf("%s fetched %d times", path, hits[path])
		}
		if r.Attempts >= 2 {
			reclaimed++
		}
	}
	if len(rows) != jobs*perJob || reclaimed > 2 {
		t.Fatalf("%d targets; %d claimed again (the dead instance had 2 workers)", len(rows), reclaimed)
	}
	t.Logf("%d targets, %d fetches; killed after %d; %d targets claimed again", len(rows), totalHits(origin), killedAt, reclaimed)
}

// sampleCaps watches the database every 10 ms until stopped: at most 10
// live jobs, one per caller, one running target per job.
func sampleCaps(t *testing.T, db *gorm.DB) (stop func(), violations func() []string) {
	var mu sync.Mutex
	var found []string
	var done atomic.Bool
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for !done.Load() {
			var live, perCaller, perJob int64
			db.Raw(`SELECT COUNT(*) FROM batch_jobs WHERE status IN ('queued','running')`).Scan(&live)
			db.Raw(`SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM batch_jobs WHERE status IN ('queued','running') GROUP BY caller) x`).Scan(&perCaller)
			db.Raw(`SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM batch_targets WHERE status = 'running' GROUP BY job_id) x`).Scan(&perJob)
			if live > 10 || perCaller > 1 || perJob > 1 {
				mu.Lock()
				found = append(found, fmt.Sprintf("live %d, per caller %d, running per job %d", live, perCaller, perJob))
				mu.Unlock()
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	return func() { done.Store(true); <-finished }, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return found
	}
}

func totalHits(o *countingOrigin) int {
	n := 0
	for _, h := range o.Hits() {
		n += h
	}
	return n
}

func waitFinished(t testing.TB, addr, key, id string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		job := batchCall(t, "GET", "http://"+addr+"/v1/batch/"+id+"?wait=5s", key, "")
		if s := job["status"]; s != "queued" && s != "running" {
			return
		}
	}
	t.Fatalf("job %s did not finish", id)
}

func rawCall(t *testing.T, method, url, key, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// BenchmarkBatchThroughput: ten jobs of 32 targets (pages that take 20 ms
// to answer) drained by one and by three instances on one PostgreSQL, two
// workers each; reports targets per second.
func BenchmarkBatchThroughput(b *testing.B) {
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			origin := newCountingOrigin(b, 20*time.Millisecond)
			c := startCluster(b, origin.Server, n)
			targets, round := 0, 0
			start := time.Now()
			for b.Loop() {
				round++
				ids := make([]string, 10)
				for j := range ids {
					var ts []string
					for i := range 32 {
						ts = append(ts, fmt.Sprintf(`{"url": "%s/r%d/j%d/t%d"}`, origin.URL, round, j, i))
					}
					ids[j] = batchCall(b, "POST", "http://"+c.addrs[j%n]+"/v1/batch", fmt.Sprintf("key-%d", j), `{"targets": [`+strings.Join(ts, ",")+`]}`)["job_id"].(string)
				}
				for j, id := range ids {
					waitFinished(b, c.addrs[j%n], fmt.Sprintf("key-%d", j), id)
				}
				targets += 320
			}
			b.ReportMetric(float64(targets)/time.Since(start).Seconds(), "targets/s")
		})
	}
}
