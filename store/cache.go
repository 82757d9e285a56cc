package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// CacheEntry is one snapshot of a document at a cache stage's position.
type CacheEntry struct {
	Key       string    `gorm:"column:cache_key;primaryKey;size:64"`
	Snapshot  []byte    `gorm:"not null"`
	Bytes     int64     `gorm:"not null"`
	CreatedAt time.Time `gorm:"not null;index"`
	ExpiresAt time.Time `gorm:"not null;index"`
}

// CacheGet returns the fresh entry under key, if any. Reading never writes.
func (s *Store) CacheGet(ctx context.Context, key string, now time.Time) (*CacheEntry, bool, error) {
	var e CacheEntry
	err := s.db.WithContext(ctx).Where("cache_key = ? AND expires_at > ?", key, now).Take(&e).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("cache get: %w", err)
	}
	return &e, true, nil
}

// CachePut stores e, replacing an older entry under the same key, then
// evicts expired entries and, oldest first, whatever exceeds budget bytes.
func (s *Store) CachePut(ctx context.Context, e *CacheEntry, budget int64) error {
	e.Bytes = int64(len(e.Snapshot))
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(e).Error; err != nil {
			return fmt.Errorf("cache put: %w", err)
		}
		if err := tx.Where("expires_at <= ?", e.CreatedAt).Delete(&CacheEntry{}).Error; err != nil {
			return fmt.Errorf("cache expire: %w", err)
		}
		return evict(tx, budget)
	})
}

// evict deletes the oldest entries until the total is within budget.
func evict(tx *gorm.DB, budget int64) error {
	var total int64
	if err := tx.Model(&CacheEntry{}).Select("COALESCE(SUM(bytes), 0)").Scan(&total).Error; err != nil {
		return fmt.Errorf("cache size: %w", err)
	}
	for total > budget {
		var oldest CacheEntry
		if err := tx.Order("created_at, cache_key").Take(&oldest).Error; err != nil {
			return fmt.Errorf("cache evict: %w", err)
		}
		if err := tx.Delete(&oldest).Error; err != nil {
			return fmt.Errorf("cache evict: %w", err)
		}
		total -= oldest.Bytes
	}
	return nil
}

// CacheBytes is the total size of the cached snapshots.
func (s *Store) CacheBytes(ctx context.Context) (int64, error) {
	var total int64
	err := s.db.WithContext(ctx).Model(&CacheEntry{}).Select("COALESCE(SUM(bytes), 0)").Scan(&total).Error
	return total, err
}

// CacheTable is the cache as the cache stages use it (stages.CacheStore),
// with the byte budget every Put keeps to.
type CacheTable struct {
	store  *Store
	budget int64
	now    func() time.Time
}

// CacheTable returns the cache with a budget of budget bytes.
func (s *Store) CacheTable(budget int64) *CacheTable {
	return &CacheTable{store: s, budget: budget, now: time.Now}
}

// Get returns the fresh snapshot under key and when it was taken.
func (c *CacheTable) Get(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	e, ok, err := c.store.CacheGet(ctx, key, c.now())
	if err != nil || !ok {
		return nil, time.Time{}, false, err
	}
	return e.Snapshot, e.CreatedAt, true, nil
}

// Put stores a snapshot until expires.
func (c *CacheTable) Put(ctx context.Context, key string, snapshot []byte, expires time.Time) error {
	return c.store.CachePut(ctx, &CacheEntry{Key: key, Snapshot: snapshot, CreatedAt: c.now(), ExpiresAt: expires}, c.budget)
}
