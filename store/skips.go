package store

import (
	"maps"
	"sync"
)

// SkipKey names what a skipped cache read or write was: the cache stage's
// index in the chain, the operation ("read" or "write") and the fault.
type SkipKey struct {
	Stage int
	Op    string
	Fault Fault
}

// The operations a skip counts.
const (
	OpRead  = "read"
	OpWrite = "write"
)

// skips counts the cache reads and writes the store's faults cost, since
// the process started.
type skips struct {
	mu sync.Mutex
	n  map[SkipKey]int64
}

func (k *skips) add(key SkipKey) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.n == nil {
		k.n = map[SkipKey]int64{}
	}
	k.n[key]++
}

// CacheSkips returns how many cache reads and writes this process skipped
// for a fault of the store, by stage, operation and fault.
func (s *Store) CacheSkips() map[SkipKey]int64 {
	s.skips.mu.Lock()
	defer s.skips.mu.Unlock()
	return maps.Clone(s.skips.n)
}

// Skips returns how many cache reads and writes this process skipped for
// a fault of the store (CacheSkips).
func (c *CacheTable) Skips() map[SkipKey]int64 { return c.store.CacheSkips() }
