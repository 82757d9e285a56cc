package store

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"gorm.io/gorm"
)

// Retired is what RetireCache took out of the cache.
type Retired struct {
	Entries, Bytes int64
}

// RetireCache takes out of the cache, in one transaction, the entries
// whose tag keep refuses (stored by an older build or under another
// configuration, so never read again): their bookkeeping rows go and
// their bytes leave the running totals at once, so they no longer count
// against max_bytes; their snapshots, the bulk, are deleted afterwards in
// the background (PurgeOrphans), a batch at a time, so that a start never
// waits for them.
func (s *Store) RetireCache(ctx context.Context, keep func(tag string) bool) (Retired, error) {
	var out Retired
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		out = Retired{}
		t, err := s.begin(tx)
		if err != nil {
			return err
		}
		var groups []struct {
			Tag        string `gorm:"column:key_tag"`
			Stage      int
			Restricted bool
			N, Bytes   int64
		}
		if err := tx.Model(&CacheEntry{}).Select("key_tag, stage, restricted, COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS bytes").
			Group("key_tag, stage, restricted").Scan(&groups).Error; err != nil {
			return fmt.Errorf("cache retire: %w", err)
		}
		var tags []string
		for _, g := range groups {
			if keep(g.Tag) {
				continue
			}
			t.add(g.Stage, g.Restricted, -g.Bytes, -g.N)
			out.Entries += g.N
			out.Bytes += g.Bytes
			tags = append(tags, g.Tag)
		}
		if len(tags) == 0 {
			return nil
		}
		if err := tx.Where("key_tag IN ?", tags).Delete(&CacheEntry{}).Error; err != nil {
			return fmt.Errorf("cache retire: %w", err)
		}
		return t.commit(tx)
	})
	return out, err
}

// purgeBatch is how many orphaned snapshots one transaction of
// PurgeOrphans deletes.
const purgeBatch = 200

// PurgeOrphans deletes the snapshots no entry holds (what RetireCache
// left), purgeBatch at a time, until none is left or ctx ends, and
// returns how many it deleted. A put writes an entry and its snapshot in
// one transaction, so no snapshot of a live entry is ever an orphan.
func (s *Store) PurgeOrphans(ctx context.Context) (int64, error) {
	var total int64
	for ctx.Err() == nil {
		res := s.db.WithContext(ctx).Exec(`DELETE FROM cache_blobs WHERE cache_key IN (
			SELECT b.cache_key FROM cache_blobs b
			WHERE NOT EXISTS (SELECT 1 FROM cache_entries e WHERE e.cache_key = b.cache_key) LIMIT ?)`, purgeBatch)
		if res.Error != nil {
			return total, fmt.Errorf("cache purge: %w", res.Error)
		}
		total += res.RowsAffected
		if res.RowsAffected < purgeBatch {
			return total, nil
		}
		select { // leave the writers room between batches
		case <-ctx.Done():
		case <-time.After(10 * time.Millisecond):
		}
	}
	return total, ctx.Err()
}

// PurgeInBackground runs PurgeOrphans once in the background, logging
// what it deleted; Close stops it and waits for it.
func (s *Store) PurgeInBackground(log *slog.Logger) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.purge.Lock()
	s.purge.stop = append(s.purge.stop, func() { cancel(); <-done })
	s.purge.Unlock()
	go func() {
		defer close(done)
		start := time.Now()
		n, err := s.PurgeOrphans(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("cache purge of an older build's snapshots stopped; the next start goes on", "snapshots", n, "err", err)
		case n > 0:
			log.Info("cache purge of an older build's snapshots done", "snapshots", n, "took", time.Since(start).Round(time.Millisecond).String())
		}
	}()
}
