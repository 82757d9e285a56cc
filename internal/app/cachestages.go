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
// table: every configured stage, at zero until it stores anything.
func cacheStats(table *store.CacheTable, positions []int) metrics.CacheStats {
	return func(ctx context.Context) ([]metrics.CacheStage, error) {
		stats, err := table.Stats(ctx)
		if err != nil {
			return nil, err
		}
		byIndex := map[int]store.CacheStageStats{}
		for _, st := range stats {
			byIndex[st.Stage] = st
		}
		dropped := table.Dropped()
		out := make([]metrics.CacheStage, len(positions))
		for i, pos := range positions {
			st := byIndex[pos-1]
			out[i] = metrics.CacheStage{Position: pos, Bytes: st.Bytes, Entries: st.Entries,
				Expired: dropped[store.DropKey{Stage: pos - 1, Reason: "expired"}],
				Evicted: dropped[store.DropKey{Stage: pos - 1, Reason: "evicted"}]}
		}
		return out, nil
	}
}
