package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/siftd/sift/errclass"
)

// The outcome classes batch metrics know; anything else is counted as
// "other", so a raw string never becomes a label value. A failed target's
// outcome is its class's in errclass's table.
var (
	batchJobOutcomes    = set("created", "reused", "done", "partial", "failed", "cancelled", "restart")
	batchTargetOutcomes = set(append([]string{"ok", "cancel"}, tableOutcomes()...)...)
)

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func tableOutcomes() []string {
	out := make([]string, 0, len(errclass.Rows()))
	for _, r := range errclass.Rows() {
		if r.Outcome != "" {
			out = append(out, r.Outcome)
		}
	}
	return out
}

func fold(known map[string]bool, outcome string) string {
	if known[outcome] {
		return outcome
	}
	return "other"
}

// Batch holds the sift_batch_* series. It implements batch.Hooks.
type Batch struct {
	jobs        *prometheus.CounterVec
	targets     *prometheus.CounterVec
	queueDepth  prometheus.Gauge
	inFlight    prometheus.Gauge
	jobSeconds  prometheus.Histogram
	targetSecs  prometheus.Histogram
	resultBytes prometheus.Histogram
}

func newBatch() *Batch {
	b := &Batch{
		jobs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sift_batch_jobs_total", Help: "Batch job events by outcome.",
		}, []string{"outcome"}),
		targets: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sift_batch_targets_total", Help: "Finished batch targets by outcome.",
		}, []string{"outcome"}),
		queueDepth: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "sift_batch_queue_depth", Help: "Live (queued or running) batch jobs of this instance.",
		}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "sift_batch_targets_inflight", Help: "Batch targets being fetched now.",
		}),
		jobSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "sift_batch_job_seconds", Help: "Batch job life from submit to its end.",
			Buckets: []float64{1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600},
		}),
		targetSecs: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "sift_batch_target_seconds", Help: "Time to fetch one batch target.",
			Buckets: []float64{.05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 210},
		}),
		resultBytes: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "sift_batch_result_bytes", Help: "Size of a stored batch result.",
			Buckets: prometheus.ExponentialBuckets(1024, 4, 8),
		}),
	}
	// Every outcome starts at zero, so a rate sees it before it happens.
	for o := range batchJobOutcomes {
		b.jobs.WithLabelValues(o)
	}
	for o := range batchTargetOutcomes {
		b.targets.WithLabelValues(o)
	}
	b.jobs.WithLabelValues("other")
	b.targets.WithLabelValues("other")
	return b
}

func (b *Batch) collectors() []prometheus.Collector {
	return []prometheus.Collector{b.jobs, b.targets, b.queueDepth, b.inFlight, b.jobSeconds, b.targetSecs, b.resultBytes}
}

// Job counts a job event.
func (b *Batch) Job(outcome string) { b.jobs.WithLabelValues(fold(batchJobOutcomes, outcome)).Inc() }

// JobFinished observes a job's life.
func (b *Batch) JobFinished(took time.Duration) { b.jobSeconds.Observe(took.Seconds()) }

// Target counts a finished target.
func (b *Batch) Target(outcome string, took time.Duration, resultBytes int) {
	b.targets.WithLabelValues(fold(batchTargetOutcomes, outcome)).Inc()
	b.targetSecs.Observe(took.Seconds())
	if resultBytes > 0 {
		b.resultBytes.Observe(float64(resultBytes))
	}
}

// Load sets the gauges.
func (b *Batch) Load(liveJobs, inFlight int) {
	b.queueDepth.Set(float64(liveJobs))
	b.inFlight.Set(float64(inFlight))
}
