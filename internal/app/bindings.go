package app

import (
	"context"
	"time"

	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/store"
)

// bindings stand in for the plugin host while the chain is built: the
// stages decode their blocks first, and the host is sized from the built
// stages (fetch's body cap sizes plugin messages), then bound here. No
// stage calls it before Load returns.
type bindings struct {
	declared declaredDigesters
	host     *host.Host
}

// Route finds the extractor for mediaType in the host.
func (b *bindings) Route(mediaType string) (string, stages.Extractor, bool) {
	return b.host.Route(mediaType)
}

// RouteDocument finds the extractor for one document in the host, sniff
// and container rules first.
func (b *bindings) RouteDocument(mediaType, docURL string, body []byte) (string, stages.Extractor, bool) {
	return b.host.RouteDocument(mediaType, docURL, body)
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

// cacheViews are the cache stages' views of the store's cache table, by
// each stage's index in the chain. A cache stage takes its view when it is
// built, but the table is sized from the built cache stages' budgets and
// opened after them, so a view finds its table when first used: Load
// binds the table before it returns, and no stage runs before that.
type cacheViews struct {
	tables map[int]*store.CacheTable
}

// bind binds the cache stages at indexes (0-based, in the chain) to table.
func (v *cacheViews) bind(table *store.CacheTable, indexes []int) {
	v.tables = make(map[int]*store.CacheTable, len(indexes))
	for _, i := range indexes {
		v.tables[i] = table.At(i)
	}
}

// At is the cache as the cache stage at index stage uses it.
func (v *cacheViews) At(stage int) stages.CacheStore { return stageCache{v: v, stage: stage} }

// stageCache is one cache stage's view of the table, found once the table
// is bound.
type stageCache struct {
	v     *cacheViews
	stage int
}

// Get reads the stage's entries.
func (s stageCache) Get(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	return s.v.tables[s.stage].Get(ctx, key)
}

// GetMemo reads the stage's entries, with the memo of one kept in memory.
func (s stageCache) GetMemo(ctx context.Context, key string) ([]byte, time.Time, stages.Memo, bool, error) {
	snap, takenAt, memo, ok, err := s.v.tables[s.stage].GetMemo(ctx, key)
	if memo == nil {
		return snap, takenAt, nil, ok, err // no memo, not a nil *store.Memo in the interface
	}
	return snap, takenAt, memo, ok, err
}

// Put writes an entry of the stage's, in the share of the caller's class.
func (s stageCache) Put(ctx context.Context, key string, snapshot []byte, expires time.Time, restricted bool) error {
	return s.v.tables[s.stage].Put(ctx, key, snapshot, expires, restricted)
}

// GetStale reads the stage's entries, fresh or not.
func (s stageCache) GetStale(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	return s.v.tables[s.stage].GetStale(ctx, key)
}

// PutKept writes an entry of the stage's kept past its freshness.
func (s stageCache) PutKept(ctx context.Context, key string, snapshot []byte, expires, keepUntil time.Time, restricted bool) error {
	return s.v.tables[s.stage].PutKept(ctx, key, snapshot, expires, keepUntil, restricted)
}

var (
	_ stages.StaleStore      = stageCache{}
	_ stages.ExtractorRouter = (*bindings)(nil)
	_ stages.DocumentRouter  = (*bindings)(nil)
	_ stages.OptionChecker   = (*bindings)(nil)
	_ stages.DigesterSet     = (*bindings)(nil)
	_ stages.CacheViews      = (*cacheViews)(nil)
	_ stages.MemoStore       = stageCache{}
)
