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
}

// CacheStats reads every cache stage's figures.
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
}

func (c cacheCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), cacheScrapeTimeout)
	defer cancel()
	stats := c.m.cacheStats.Load()
	if stats == nil {
		return
	}
	stages, err := (*stats)(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(cacheBytesDesc, err)
		return
	}
	for _, st := range stages {
		pos := strconv.Itoa(st.Position)
		ch <- prometheus.MustNewConstMetric(cacheBytesDesc, prometheus.GaugeValue, float64(st.Bytes), pos)
		ch <- prometheus.MustNewConstMetric(cacheEntriesDesc, prometheus.GaugeValue, float64(st.Entries), pos)
		ch <- prometheus.MustNewConstMetric(cacheDroppedDesc, prometheus.CounterValue, float64(st.Expired), pos, "expired")
		ch <- prometheus.MustNewConstMetric(cacheDroppedDesc, prometheus.CounterValue, float64(st.Evicted), pos, "evicted")
	}
}
