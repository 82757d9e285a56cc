package app

import (
	"context"
	"time"

	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/store"
)

// bindings stand in for the plugin host and the cache table while the
// chain is built: the stages decode their blocks first, and the host and
// the table are sized from the built stages (fetch's body cap, the cache
// budgets), then bound here. No stage calls them before Load returns.
type bindings struct {
	declared declaredDigesters
	host     *host.Host
	// caches holds each cache stage's view of the table, by the stage's
	// index in the chain; bound with the store.
	caches map[int]*store.CacheTable
}

// Route finds the extractor for mediaType in the host.
func (b *bindings) Route(mediaType string) (string, stages.Extractor, bool) {
	return b.host.Route(mediaType)
}

// CheckOptions checks a request's options against those the extractor
// declares, in the host.
func (b *bindings) CheckOptions(extractor string, opts map[string]string) error {
	return b.host.CheckOptions(extractor, opts)
}

// Declares reports whether the extractor declares the option, in the
// host.
func (b *bindings) Declares(extractor, option string) bool {
	return b.host.Declares(extractor, option)
}

// Digester finds a digester in the host; while the chain is built, before
// there is one, it answers whether a block declares name.
func (b *bindings) Digester(name string) (stages.Digester, bool) {
	if b.host == nil {
		return b.declared.Digester(name)
	}
	return b.host.Digester(name)
}

// bindCache binds the cache stages at indexes (0-based, in the chain) to
// table.
func (b *bindings) bindCache(table *store.CacheTable, indexes []int) {
	b.caches = make(map[int]*store.CacheTable, len(indexes))
	for _, i := range indexes {
		b.caches[i] = table.At(i)
	}
}

// At is the cache as the cache stage at index stage uses it.
func (b *bindings) At(stage int) stages.CacheStore { return stageCache{b: b, stage: stage} }

// stageCache is one cache stage's view of the table, found once the store
// is bound.
type stageCache struct {
	b     *bindings
	stage int
}

// Get reads the stage's entries.
func (s stageCache) Get(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	return s.b.caches[s.stage].Get(ctx, key)
}

// GetMemo reads the stage's entries, with the memo of one kept in memory.
func (s stageCache) GetMemo(ctx context.Context, key string) ([]byte, time.Time, stages.Memo, bool, error) {
	snap, takenAt, memo, ok, err := s.b.caches[s.stage].GetMemo(ctx, key)
	if memo == nil {
		return snap, takenAt, nil, ok, err // no memo, not a nil *store.Memo in the interface
	}
	return snap, takenAt, memo, ok, err
}

// Put writes an entry of the stage's.
func (s stageCache) Put(ctx context.Context, key string, snapshot []byte, expires time.Time) error {
	return s.b.caches[s.stage].Put(ctx, key, snapshot, expires)
}

// At is another stage's view.
func (s stageCache) At(stage int) stages.CacheStore { return s.b.At(stage) }

var (
	_ stages.ExtractorRouter = (*bindings)(nil)
	_ stages.OptionChecker   = (*bindings)(nil)
	_ stages.DigesterSet     = (*bindings)(nil)
	_ stages.MemoStore       = stageCache{}
)
