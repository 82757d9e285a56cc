package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// The cache lives in three tables so that no request pays for its size:
// cache_entries holds one small bookkeeping row per entry (indexed by
// expiry and by age, which is what expiry and eviction walk), cache_blobs
// holds the snapshots apart, read only by a hit, and cache_stats holds the
// running total that each put adjusts in its own transaction instead of
// summing the table.

// CacheEntry is the bookkeeping of one snapshot; its bytes are in
// CacheBlob under the same key.
type CacheEntry struct {
	Key       string    `gorm:"column:cache_key;primaryKey;size:64;index:idx_cache_entries_age,priority:2"`
	Bytes     int64     `gorm:"not null"`
	CreatedAt time.Time `gorm:"not null;index:idx_cache_entries_age,priority:1"`
	ExpiresAt time.Time `gorm:"not null;index"`
}

// TableName keeps the bookkeeping table's name stable.
func (CacheEntry) TableName() string { return "cache_entries" }

// CacheBlob is one snapshot's bytes.
type CacheBlob struct {
	Key      string `gorm:"column:cache_key;primaryKey;size:64"`
	Snapshot []byte `gorm:"not null"`
}

// CacheStats is the cache's one running total (ID is always 1).
type CacheStats struct {
	ID      int   `gorm:"primaryKey;autoIncrement:false"`
	Bytes   int64 `gorm:"not null"`
	Entries int64 `gorm:"not null"`
}

// Bounds of the housekeeping one put does: at most evictBatch rows per
// query and evictRounds queries per kind, so a put's cost stays flat
// however large the cache is; a backlog (a budget lowered across a
// restart) drains over the following puts.
const (
	evictBatch  = 32
	evictRounds = 4
)

// statsID is the key of the one cache_stats row.
const statsID = 1

// migrateCache creates the cache's tables and its stats row. The cache is
// disposable: a table in an older layout (snapshot beside its bookkeeping)
// is dropped, not converted.
func migrateCache(tx *gorm.DB) error {
	m := tx.Migrator()
	if m.HasTable(&CacheEntry{}) && m.HasColumn(&CacheEntry{}, "snapshot") {
		if err := m.DropTable(&CacheEntry{}); err != nil {
			return fmt.Errorf("drop old cache: %w", err)
		}
	}
	if err := tx.AutoMigrate(&CacheEntry{}, &CacheBlob{}, &CacheStats{}); err != nil {
		return err
	}
	var n int64
	if err := tx.Model(&CacheStats{}).Where("id = ?", statsID).Count(&n).Error; err != nil || n > 0 {
		return err
	}
	// First start on this database: count what is there once, here,
	// rather than on any request.
	stats := CacheStats{ID: statsID}
	if err := tx.Model(&CacheEntry{}).Select("COALESCE(SUM(bytes), 0) AS bytes, COUNT(*) AS entries").
		Scan(&stats).Error; err != nil {
		return err
	}
	stats.ID = statsID
	return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&stats).Error
}

// CacheGet returns the fresh snapshot under key and when it was taken.
// Reading never writes.
func (s *Store) CacheGet(ctx context.Context, key string, now time.Time) (snapshot []byte, takenAt time.Time, ok bool, err error) {
	e, ok, err := s.cacheGet(ctx, key, now)
	if err != nil || !ok {
		return nil, time.Time{}, false, err
	}
	return e.snapshot, e.takenAt, true, nil
}

func (s *Store) cacheGet(ctx context.Context, key string, now time.Time) (*hotEntry, bool, error) {
	var row struct {
		CreatedAt time.Time
		ExpiresAt time.Time
		Snapshot  []byte
	}
	err := s.db.WithContext(ctx).Table("cache_entries AS e").
		Select("e.created_at, e.expires_at, b.snapshot").
		Joins("JOIN cache_blobs AS b ON b.cache_key = e.cache_key").
		Where("e.cache_key = ? AND e.expires_at > ?", key, now).
		Take(&row).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("cache get: %w", err)
	}
	return &hotEntry{key: key, snapshot: row.Snapshot, takenAt: row.CreatedAt, expires: row.ExpiresAt}, true, nil
}

// CachePut stores snapshot under key until expires, replacing an older
// entry, and keeps the total within budget bytes: it drops a bounded batch
// of expired entries and then, oldest first, what exceeds the budget. A
// snapshot larger than the whole budget is not stored.
func (s *Store) CachePut(ctx context.Context, key string, snapshot []byte, now, expires time.Time, budget int64) error {
	size := int64(len(snapshot))
	if size > budget {
		return nil
	}
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		stats, err := s.lockStats(tx)
		if err != nil {
			return err
		}
		var old []CacheEntry
		if err := tx.Select("bytes").Where("cache_key = ?", key).Limit(1).Find(&old).Error; err != nil {
			return fmt.Errorf("cache put: %w", err)
		}
		if len(old) == 1 {
			stats.Bytes -= old[0].Bytes
			stats.Entries--
		}
		entry := CacheEntry{Key: key, Bytes: size, CreatedAt: now, ExpiresAt: expires}
		if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&entry).Error; err != nil {
			return fmt.Errorf("cache put: %w", err)
		}
		if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&CacheBlob{Key: key, Snapshot: snapshot}).Error; err != nil {
			return fmt.Errorf("cache put: %w", err)
		}
		stats.Bytes += size
		stats.Entries++
		if err := expire(tx, stats, now); err != nil {
			return err
		}
		if err := evict(tx, stats, budget); err != nil {
			return err
		}
		return tx.Model(&CacheStats{}).Where("id = ?", statsID).
			Updates(map[string]any{"bytes": stats.Bytes, "entries": stats.Entries}).Error
	})
}

// lockStats reads the running total and, on a shared database, locks it
// for the transaction: puts from every instance then take turns, so each
// sees the others' entries. SQLite's write transactions already do.
func (s *Store) lockStats(tx *gorm.DB) (*CacheStats, error) {
	q := tx.Where("id = ?", statsID)
	if s.shared {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var stats CacheStats
	if err := q.Take(&stats).Error; err != nil {
		return nil, fmt.Errorf("cache stats: %w", err)
	}
	return &stats, nil
}

// expire drops up to evictRounds batches of expired entries, soonest
// expired first.
func expire(tx *gorm.DB, stats *CacheStats, now time.Time) error {
	for range evictRounds {
		var batch []CacheEntry
		if err := tx.Select("cache_key, bytes").Where("expires_at <= ?", now).
			Order("expires_at").Limit(evictBatch).Find(&batch).Error; err != nil {
			return fmt.Errorf("cache expire: %w", err)
		}
		if err := drop(tx, stats, batch); err != nil || len(batch) < evictBatch {
			return err
		}
	}
	return nil
}

// evict drops the oldest entries until the total is within budget, up to
// evictRounds batches.
func evict(tx *gorm.DB, stats *CacheStats, budget int64) error {
	for range evictRounds {
		if stats.Bytes <= budget {
			return nil
		}
		var oldest []CacheEntry
		if err := tx.Select("cache_key, bytes").Order("created_at, cache_key").
			Limit(evictBatch).Find(&oldest).Error; err != nil {
			return fmt.Errorf("cache evict: %w", err)
		}
		over, n := stats.Bytes-budget, 0
		for n < len(oldest) && over > 0 {
			over -= oldest[n].Bytes
			n++
		}
		if err := drop(tx, stats, oldest[:n]); err != nil || n == 0 {
			return err
		}
	}
	return nil
}

// drop deletes entries and their snapshots and takes them off the total.
func drop(tx *gorm.DB, stats *CacheStats, entries []CacheEntry) error {
	if len(entries) == 0 {
		return nil
	}
	keys := make([]string, len(entries))
	for i, e := range entries {
		keys[i] = e.Key
		stats.Bytes -= e.Bytes
		stats.Entries--
	}
	if err := tx.Where("cache_key IN ?", keys).Delete(&CacheEntry{}).Error; err != nil {
		return fmt.Errorf("cache evict: %w", err)
	}
	if err := tx.Where("cache_key IN ?", keys).Delete(&CacheBlob{}).Error; err != nil {
		return fmt.Errorf("cache evict: %w", err)
	}
	return nil
}

// CacheStats returns the running totals of the cached snapshots.
func (s *Store) CacheStats(ctx context.Context) (bytes, entries int64, err error) {
	var stats CacheStats
	if err := s.db.WithContext(ctx).Where("id = ?", statsID).Take(&stats).Error; err != nil {
		return 0, 0, fmt.Errorf("cache stats: %w", err)
	}
	return stats.Bytes, stats.Entries, nil
}

// CacheTable is the cache as the cache stages use it (stages.CacheStore),
// with the byte budget every Put keeps to, in front of which it keeps the
// most recently used snapshots in memory (a quarter of the budget, at
// most hotMax).
type CacheTable struct {
	store  *Store
	budget int64
	hot    *hot
	now    func() time.Time
}

// CacheTable returns the cache with a budget of budget bytes.
func (s *Store) CacheTable(budget int64) *CacheTable {
	return &CacheTable{store: s, budget: budget, hot: newHot(min(budget/4, hotMax)), now: time.Now}
}

// Get returns the fresh snapshot under key and when it was taken. The
// snapshot may be shared with other readers: it must not be changed.
func (c *CacheTable) Get(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	now := c.now()
	if snap, takenAt, ok := c.hot.get(key, now); ok {
		return snap, takenAt, true, nil
	}
	e, ok, err := c.store.cacheGet(ctx, key, now)
	if err != nil || !ok {
		return nil, time.Time{}, false, err
	}
	c.hot.put(key, e.snapshot, e.takenAt, e.expires)
	return e.snapshot, e.takenAt, true, nil
}

// Put stores a snapshot until expires.
func (c *CacheTable) Put(ctx context.Context, key string, snapshot []byte, expires time.Time) error {
	now := c.now()
	if err := c.store.CachePut(ctx, key, snapshot, now, expires, c.budget); err != nil {
		c.hot.drop(key)
		return err
	}
	if int64(len(snapshot)) <= c.budget {
		c.hot.put(key, snapshot, now, expires)
	}
	return nil
}
