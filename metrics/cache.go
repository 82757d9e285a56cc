package metrics

import (
	"context"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// CacheStage is one cache stage's size and the entries dropped from it.
// Position is where the stage stands in the pipeline, counting from 1,
// as `sift cache clear --stage` takes it.
type CacheStage struct {
	Position         int
	Bytes, Entries   int64
	Expired, Evicted int64
	// Skipped are the stage's reads and writes the store failed, each
	// operation and reason listed, at zero until one is skipped.
	Skipped []CacheSkip
}

// CacheSkip counts the reads or writes of one cache stage skipped for one
// reason: Op is "read" or "write", Reason the store's fault (disk_full,
// read_only, unreachable, min_free, other).
type CacheSkip struct {
	Op, Reason string
	N          int64
}

// CacheStats reads every cache stage's figures. When the database cannot
// say, it returns the stages with their counters and the error: the sizes
// are then unknown.
type CacheStats func(ctx context.Context) ([]CacheStage, error)

// cacheScrapeTimeout bounds the read of the cache's totals at a scrape.
const cacheScrapeTimeout = 2 * time.Second

var (
	cacheBytesDesc = prometheus.NewDesc("sift_cache_bytes",
		"Bytes of the snapshots a cache stage holds, in the store every instance shares.", []string{"stage"}, nil)
	cacheEntriesDesc = prometheus.NewDesc("sift_cache_entries",
		"Snapshots a cache stage holds, in the store every instance shares.", []string{"stage"}, nil)
	cacheDroppedDesc = prometheus.NewDesc("sift_cache_dropped_total",
		"Snapshots this instance dropped, by cache stage and reason (expired, evicted to keep within max_bytes).",
		[]string{"stage", "reason"}, nil)
	cacheSkippedDesc = prometheus.NewDesc("sift_cache_skipped_total",
		"Cache reads and writes this instance skipped because the store failed them (the answer went out uncached, with a warning), "+
			"by cache stage, operation (read, write) and reason (disk_full, read_only, unreachable, min_free, other).",
		[]string{"stage", "op", "reason"}, nil)
)

// WatchCache has the cache's size and drop series read from stats at each
// scrape (one row per cache stage: no scan of the cache). Each
// configuration loaded calls it, a reload included; nil stats (a
// configuration without a cache stage) drop the series.
func (m *Metrics) WatchCache(stats CacheStats) {
	if stats == nil {
		m.cacheStats.Store(nil)
		return
	}
	m.cacheStats.Store(&stats)
}

// cacheCollector exports the series of the stats WatchCache last set.
type cacheCollector struct{ m *Metrics }

func (cacheCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- cacheBytesDesc
	ch <- cacheEntriesDesc
	ch <- cacheDroppedDesc
	ch <- cacheSkippedDesc
}

func (c cacheCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), cacheScrapeTimeout)
	defer cancel()
	stats := c.m.cacheStats.Load()
	if stats == nil {
		return
	}
	// Without the database the sizes are unknown and left out; the
	// counters are this process's and still exported, so a scrape in an
	// outage works and shows what the outage cost.
	stages, err := (*stats)(ctx)
	for _, st := range stages {
		pos := strconv.Itoa(st.Position)
		if err == nil {
			ch <- prometheus.MustNewConstMetric(cacheBytesDesc, prometheus.GaugeValue, float64(st.Bytes), pos)
			ch <- prometheus.MustNewConstMetric(cacheEntriesDesc, prometheus.GaugeValue, float64(st.Entries), pos)
		}
		ch <- prometheus.MustNewConstMetric(cacheDroppedDesc, prometheus.CounterValue, float64(st.Expired), pos, "expired")
		ch <- prometheus.MustNewConstMetric(cacheDroppedDesc, prometheus.CounterValue, float64(st.Evicted), pos, "evicted")
		for _, sk := range st.Skipped {
			ch <- prometheus.MustNewConstMetric(cacheSkippedDesc, prometheus.CounterValue, float64(sk.N), pos, sk.Op, sk.Reason)
		}
	}
}
