package app

import (
	"context"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/metrics"
	"github.com/siftd/sift/store"
)

// CacheStages lists where the configured chain's cache stages stand,
// counting the pipeline's stages from 1 as operators read them.
func CacheStages(cfg *config.Config) []int {
	var out []int
	for i, st := range chainBlocks(cfg) {
		if st.Kind == "cache" {
			out = append(out, i+1)
		}
	}
	return out
}

// cacheWatcher is an Observer that also exports the cache's figures
// (metrics.Metrics).
type cacheWatcher interface {
	WatchCache(metrics.CacheStats)
}

// cacheStats reads the figures of the cache stages at positions from
// table: every configured stage, at zero until it stores anything. The
// counters are the process's own and come back even when the database
// cannot give the sizes.
func cacheStats(table *store.CacheTable, positions []int) metrics.CacheStats {
	return func(ctx context.Context) ([]metrics.CacheStage, error) {
		stats, err := table.Stats(ctx)
		byIndex := map[int]store.CacheStageStats{}
		for _, st := range stats {
			byIndex[st.Stage] = st
		}
		dropped, skipped := table.Dropped(), table.Skips()
		out := make([]metrics.CacheStage, len(positions))
		for i, pos := range positions {
			st := byIndex[pos-1]
			out[i] = metrics.CacheStage{Position: pos, Bytes: st.Bytes, Entries: st.Entries,
				Expired: dropped[store.DropKey{Stage: pos - 1, Reason: "expired"}],
				Evicted: dropped[store.DropKey{Stage: pos - 1, Reason: "evicted"}],
				Skipped: skips(skipped, pos-1)}
		}
		return out, err
	}
}

// skips lists the skipped reads and writes of the stage at index, every
// operation and fault, at zero until one is skipped.
func skips(n map[store.SkipKey]int64, index int) []metrics.CacheSkip {
	var out []metrics.CacheSkip
	for _, op := range []string{store.OpRead, store.OpWrite} {
		for _, f := range store.Faults() {
			out = append(out, metrics.CacheSkip{Op: op, Reason: string(f), N: n[store.SkipKey{Stage: index, Op: op, Fault: f}]})
		}
	}
	return out
}
