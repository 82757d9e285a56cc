package app

import (
	"context"
	"time"

	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/stages"
)

// bindings stand in for the plugin host and the cache table while the
// chain is built: the stages decode their blocks first, and the host and
// the table are sized from the built stages (fetch's body cap, the cache
// budgets), then bound here. No stage calls them before Load returns.
type bindings struct {
	declared declaredDigesters
	host     *host.Host
	cache    stages.CacheStore
}

// Route finds the extractor for mediaType in the host.
func (b *bindings) Route(mediaType string) (string, stages.Extractor, bool) {
	return b.host.Route(mediaType)
}

// Digester finds a digester in the host; while the chain is built, before
// there is one, it answers whether a block declares name.
func (b *bindings) Digester(name string) (stages.Digester, bool) {
	if b.host == nil {
		return b.declared.Digester(name)
	}
	return b.host.Digester(name)
}

// Get reads the cache table.
func (b *bindings) Get(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	return b.cache.Get(ctx, key)
}

// Put writes the cache table.
func (b *bindings) Put(ctx context.Context, key string, snapshot []byte, expires time.Time) error {
	return b.cache.Put(ctx, key, snapshot, expires)
}

var (
	_ stages.ExtractorRouter = (*bindings)(nil)
	_ stages.DigesterSet     = (*bindings)(nil)
	_ stages.CacheStore      = (*bindings)(nil)
)
