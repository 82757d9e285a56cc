package metrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/errclass"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

func TestBatchSeriesFoldUnknownOutcomes(t *testing.T) {
	m := New()
	m.Batch.Job("created")
	m.Batch.Job("done")
	m.Batch.Job("http://10.0.0.5/secret") // never a label
	m.Batch.Target("blocked", 20*time.Millisecond, 0)
	m.Batch.Target("ok", 300*time.Millisecond, 5000)
	m.Batch.Target("weird: upstream said no", time.Second, 0)
	m.Batch.JobFinished(3 * time.Second)
	m.Batch.Load(2, 1)
	text := scrape(t, m)
	for _, want := range []string{
		`sift_batch_jobs_total{outcome="created"} 1`,
		`sift_batch_jobs_total{outcome="done"} 1`,
		`sift_batch_jobs_total{outcome="other"} 1`,
		`sift_batch_targets_total{outcome="blocked"} 1`,
		`sift_batch_targets_total{outcome="ok"} 1`,
		`sift_batch_targets_total{outcome="other"} 1`,
		`sift_batch_queue_depth 2`,
		`sift_batch_targets_inflight 1`,
		`sift_batch_job_seconds_count 1`,
		`sift_batch_target_seconds_count 3`,
		`sift_batch_result_bytes_count 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(text, "10.0.0.5") || strings.Contains(text, "upstream said") {
		t.Error("a raw outcome became a label")
	}
}

// TestBatchTargetOutcomesAreTheTables: every outcome errclass's table
// gives a failed target is a label of its own, not folded into "other".
func TestBatchTargetOutcomesAreTheTables(t *testing.T) {
	m := New()
	for _, r := range errclass.Rows() {
		if r.Outcome != "" {
			m.Batch.Target(r.Outcome, time.Millisecond, 0)
		}
	}
	text := scrape(t, m)
	for _, want := range []string{"too_large", "timeout", "blocked", "upstream_4xx", "upstream_5xx"} {
		if !strings.Contains(text, `sift_batch_targets_total{outcome="`+want+`"}`) {
			t.Errorf("/metrics lacks outcome %s", want)
		}
	}
	if !strings.Contains(text, `sift_batch_targets_total{outcome="other"} 0`) && strings.Contains(text, `sift_batch_targets_total{outcome="other"}`) || strings.Contains(text, "too_long") {
		t.Errorf("a table outcome was folded or renamed:\n%s", text)
	}
}
