package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// The cache lives in three tables so that no request pays for its size:
// cache_entries holds one small bookkeeping row per entry (indexed by
// expiry, and by caller class and age, which is what expiry and eviction
// walk), cache_blobs holds the snapshots apart, read only by a hit, and
// cache_stats holds the running totals that each put adjusts in its own
// transaction instead of summing the table.
//
// Each caller class has its share of the budget: restricted callers'
// entries together hold at most the table's restricted share, the
// others' the rest, and a put evicts only entries of its own class, so
// neither class can push the other's pages out.

// CacheEntry is the bookkeeping of one snapshot; its bytes are in
// CacheBlob under the same key.
type CacheEntry struct {
	Key   string `gorm:"column:cache_key;primaryKey;size:64;index:idx_cache_entries_class_age,priority:3"`
	Bytes int64  `gorm:"not null"`
	// Stage is the index in the chain of the cache stage that stored the
	// entry, by which its entries are counted and cleared.
	Stage int `gorm:"not null;default:0;index"`
	// Restricted is the class of the caller whose fetch stored the entry
	// (the cache key holds it too), whose share of the budget it counts
	// in. Entries stored before classes had shares count as unrestricted.
	Restricted bool      `gorm:"not null;default:false;index:idx_cache_entries_class_age,priority:1"`
	CreatedAt  time.Time `gorm:"not null;index:idx_cache_entries_class_age,priority:2"`
	ExpiresAt  time.Time `gorm:"not null;index"`
	// KeepUntil is when the entry goes, at ExpiresAt or later: an entry
	// whose response has validators (ETag, Last-Modified) outlives its
	// freshness, so that the origin can confirm it with a 304 instead of
	// sending it whole again (CacheGetStale).
	KeepUntil time.Time `gorm:"not null;default:'1970-01-01 00:00:00';index"`
	// Tag names the keys the entry was stored under: the cache's key
	// version and the stage's position and configuration shape, which
	// every key holds (stages/cache). A build or configuration whose
	// stages have other tags never reads the entry; RetireCache drops such
	// entries at start. "" for entries stored before tags.
	Tag string `gorm:"column:key_tag;size:512;not null;default:''"`
}

// oldAgeIndex is the age index before entries had a class: eviction no
// longer walks it.
const oldAgeIndex = "idx_cache_entries_age"

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
	// RestrictedBytes is the part of Bytes restricted callers' entries
	// hold.
	RestrictedBytes int64 `gorm:"not null;default:0"`
	// Generation counts the clears, so that every instance drops the
	// snapshots it holds in memory after one.
	Generation int64 `gorm:"not null;default:0"`
}

// CacheStageStats is one cache stage's running total, beside the whole
// cache's in CacheStats.
type CacheStageStats struct {
	Stage   int   `gorm:"primaryKey;autoIncrement:false"`
	Bytes   int64 `gorm:"not null"`
	Entries int64 `gorm:"not null"`
}

// TableName keeps the table's name stable.
func (CacheStageStats) TableName() string { return "cache_stage_stats" }

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
	newStageStats := !m.HasTable(&CacheStageStats{})
	newKeepUntil := m.HasTable(&CacheEntry{}) && !m.HasColumn(&CacheEntry{}, "keep_until")
	// A database from before the classes gets the class column (every
	// entry unrestricted, as the restricted total starts at 0) and the
	// index by class and age; the index by age alone goes, as nothing
	// walks it and every write would keep it.
	if err := tx.AutoMigrate(&CacheEntry{}, &CacheBlob{}, &CacheStats{}, &CacheStageStats{}); err != nil {
		return err
	}
	if m.HasIndex(&CacheEntry{}, oldAgeIndex) {
		if err := m.DropIndex(&CacheEntry{}, oldAgeIndex); err != nil {
			return fmt.Errorf("drop the old age index: %w", err)
		}
	}
	if newKeepUntil {
		// Entries from before kept until they expired.
		if err := tx.Exec(`UPDATE cache_entries SET keep_until = expires_at`).Error; err != nil {
			return fmt.Errorf("cache keep_until: %w", err)
		}
	}
	if newStageStats {
		// Once, at the first start with per-stage totals, rather than on
		// any request.
		if err := tx.Exec(`INSERT INTO cache_stage_stats (stage, bytes, entries)
			SELECT stage, SUM(bytes), COUNT(*) FROM cache_entries GROUP BY stage`).Error; err != nil {
			return fmt.Errorf("cache stage stats: %w", err)
		}
	}
	var n int64
	if err := tx.Model(&CacheStats{}).Where("id = ?", statsID).Count(&n).Error; err != nil || n > 0 {
		return err
	}
	// First start on this database: count what is there once, here,
	// rather than on any request.
	stats := CacheStats{ID: statsID}
	if err := tx.Model(&CacheEntry{}).Select("COALESCE(SUM(bytes), 0) AS bytes, COUNT(*) AS entries, " +
		"COALESCE(SUM(CASE WHEN restricted THEN bytes ELSE 0 END), 0) AS restricted_bytes").
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
	var row hitRow
	err := hitQuery(s.db.WithContext(ctx), key, now).Take(&row).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("cache get: %w", err)
	}
	return &hotEntry{key: key, snapshot: row.Snapshot, takenAt: row.CreatedAt, expires: row.ExpiresAt}, true, nil
}

// CacheGetStale returns the snapshot under key whether it is fresh or
// not, as long as the store keeps it (KeepUntil), and when it was taken:
// what a conditional request revalidates.
func (s *Store) CacheGetStale(ctx context.Context, key string) (snapshot []byte, takenAt time.Time, ok bool, err error) {
	var row hitRow
	err = s.db.WithContext(ctx).Table("cache_entries AS e").
		Select("e.created_at, e.expires_at, b.snapshot").
		Joins("JOIN cache_blobs AS b ON b.cache_key = e.cache_key").
		Where("e.cache_key = ?", key).Take(&row).Error
	switch {
	case errors.Is(err, gorm.ErrRecordNotFound):
		return nil, time.Time{}, false, nil
	case err != nil:
		return nil, time.Time{}, false, fmt.Errorf("cache get stale: %w", err)
	}
	return row.Snapshot, row.CreatedAt, true, nil
}

// hitRow is what a lookup reads.
type hitRow struct {
	CreatedAt time.Time
	ExpiresAt time.Time
	Snapshot  []byte
}

// hitQuery is a lookup: one entry and its snapshot, each by primary key.
func hitQuery(db *gorm.DB, key string, now time.Time) *gorm.DB {
	return db.Table("cache_entries AS e").
		Select("e.created_at, e.expires_at, b.snapshot").
		Joins("JOIN cache_blobs AS b ON b.cache_key = e.cache_key").
		Where("e.cache_key = ? AND e.expires_at > ?", key, now)
}

// CachePut stores snapshot under key, for the cache stage at index stage
// and a caller of class restricted, until expires, replacing an older
// entry, and keeps the class's entries within budget bytes (the class's
// share): it drops a bounded batch of expired entries and then, oldest
// first, what of the class's exceeds its budget. Entries of the other
// class are never evicted for it. A snapshot larger than the budget is
// not stored. The entry is kept until keepUntil (expires when earlier).
// It returns the entries it dropped, by stage.
func (s *Store) CachePut(ctx context.Context, key, tag string, stage int, restricted bool, snapshot []byte, now, expires, keepUntil time.Time, budget int64) (Dropped, error) {
	keepUntil = later(keepUntil, expires)
	size := int64(len(snapshot))
	if size > budget {
		return nil, nil
	}
	var t *tally
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if t, err = s.begin(tx); err != nil {
			return err
		}
		var old []CacheEntry
		if err := tx.Select("bytes, stage, restricted").Where("cache_key = ?", key).Limit(1).Find(&old).Error; err != nil {
			return fmt.Errorf("cache put: %w", err)
		}
		if len(old) == 1 {
			t.add(old[0].Stage, old[0].Restricted, -old[0].Bytes, -1)
		}
		entry := CacheEntry{Key: key, Bytes: size, Stage: stage, Restricted: restricted, CreatedAt: now, ExpiresAt: expires, KeepUntil: keepUntil, Tag: tag}
		// Every column, created_at too: GORM's UpdateAll leaves a
		// CreatedAt out, and a replaced snapshot then kept the first one's
		// age (served as its cached_at, counted by max age and eviction).
		replace := clause.OnConflict{Columns: []clause.Column{{Name: "cache_key"}},
			DoUpdates: clause.AssignmentColumns([]string{"bytes", "stage", "restricted", "created_at", "expires_at", "keep_until", "key_tag"})}
		if err := tx.Clauses(replace).Create(&entry).Error; err != nil {
			return fmt.Errorf("cache put: %w", err)
		}
		if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&CacheBlob{Key: key, Snapshot: snapshot}).Error; err != nil {
			return fmt.Errorf("cache put: %w", err)
		}
		t.add(stage, restricted, size, 1)
		if err := expire(tx, t, now); err != nil {
			return err
		}
		if err := evict(tx, t, restricted, budget); err != nil {
			return err
		}
		return t.commit(tx)
	})
	if err != nil {
		return nil, err
	}
	return t.dropped, nil
}

// Dropped counts the entries a put dropped, by the stage that stored them
// and why.
type Dropped map[DropKey]int64

// DropKey is a stage's index and why its entries went: "expired", or
// "evicted" to keep within the byte budget.
type DropKey struct {
	Stage  int
	Reason string
}

// tally is what one transaction changes of the running totals.
type tally struct {
	stats   *CacheStats
	stages  map[int]*CacheStageStats // changes, not totals
	dropped Dropped
}

// begin reads the running total and, on a shared database, locks it for
// the transaction: writers from every instance then take turns, so each
// sees the others' entries. SQLite's write transactions already do.
func (s *Store) begin(tx *gorm.DB) (*tally, error) {
	q := tx.Where("id = ?", statsID)
	if s.shared {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var stats CacheStats
	if err := q.Take(&stats).Error; err != nil {
		return nil, fmt.Errorf("cache stats: %w", err)
	}
	return &tally{stats: &stats, stages: map[int]*CacheStageStats{}, dropped: Dropped{}}, nil
}

func (t *tally) add(stage int, restricted bool, bytes, entries int64) {
	t.stats.Bytes += bytes
	t.stats.Entries += entries
	if restricted {
		t.stats.RestrictedBytes += bytes
	}
	d, ok := t.stages[stage]
	if !ok {
		d = &CacheStageStats{Stage: stage}
		t.stages[stage] = d
	}
	d.Bytes += bytes
	d.Entries += entries
}

// commit writes the totals back: the whole cache's, and each changed
// stage's by adding its change to the stored row.
func (t *tally) commit(tx *gorm.DB) error {
	if err := tx.Model(&CacheStats{}).Where("id = ?", statsID).
		Updates(map[string]any{"bytes": t.stats.Bytes, "entries": t.stats.Entries, "restricted_bytes": t.stats.RestrictedBytes,
			"generation": t.stats.Generation}).Error; err != nil {
		return fmt.Errorf("cache stats: %w", err)
	}
	for _, d := range t.stages {
		if d.Bytes == 0 && d.Entries == 0 {
			continue
		}
		err := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "stage"}}, DoUpdates: clause.Assignments(map[string]any{
			"bytes":   gorm.Expr("cache_stage_stats.bytes + excluded.bytes"),
			"entries": gorm.Expr("cache_stage_stats.entries + excluded.entries"),
		})}).Create(d).Error
		if err != nil {
			return fmt.Errorf("cache stage stats: %w", err)
		}
	}
	return nil
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// expire drops up to evictRounds batches of entries past their
// KeepUntil, soonest first.
func expire(tx *gorm.DB, t *tally, now time.Time) error {
	for range evictRounds {
		var batch []CacheEntry
		if err := tx.Select("cache_key, bytes, stage, restricted").Where("keep_until <= ?", now).
			Order("keep_until").Limit(evictBatch).Find(&batch).Error; err != nil {
			return fmt.Errorf("cache expire: %w", err)
		}
		if err := drop(tx, t, batch, "expired"); err != nil || len(batch) < evictBatch {
			return err
		}
	}
	return nil
}

// evict drops the oldest entries of the class until the class's total is
// within its budget, up to evictRounds batches, walking the index by
// class and age.
func evict(tx *gorm.DB, t *tally, restricted bool, budget int64) error {
	for range evictRounds {
		held := t.held(restricted)
		if held <= budget {
			return nil
		}
		var oldest []CacheEntry
		if err := oldestQuery(tx, restricted).Find(&oldest).Error; err != nil {
			return fmt.Errorf("cache evict: %w", err)
		}
		over, n := held-budget, 0
		for n < len(oldest) && over > 0 {
			over -= oldest[n].Bytes
			n++
		}
		if err := drop(tx, t, oldest[:n], "evicted"); err != nil || n == 0 {
			return err
		}
	}
	return nil
}

// oldestQuery is one batch of eviction's walk: the class's oldest
// entries, read off the index by class and age without a sort.
func oldestQuery(db *gorm.DB, restricted bool) *gorm.DB {
	return db.Model(&CacheEntry{}).Select("cache_key, bytes, stage, restricted").Where("restricted = ?", restricted).
		Order("created_at, cache_key").Limit(evictBatch)
}

// held is what the class's entries hold, by the running totals.
func (t *tally) held(restricted bool) int64 {
	if restricted {
		return t.stats.RestrictedBytes
	}
	return t.stats.Bytes - t.stats.RestrictedBytes
}

// drop deletes entries and their snapshots and takes them off the totals.
func drop(tx *gorm.DB, t *tally, entries []CacheEntry, reason string) error {
	if len(entries) == 0 {
		return nil
	}
	keys := make([]string, len(entries))
	for i, e := range entries {
		keys[i] = e.Key
		t.add(e.Stage, e.Restricted, -e.Bytes, -1)
		if reason != "" {
			t.dropped[DropKey{Stage: e.Stage, Reason: reason}]++
		}
	}
	if err := tx.Where("cache_key IN ?", keys).Delete(&CacheEntry{}).Error; err != nil {
		return fmt.Errorf("cache drop: %w", err)
	}
	if err := tx.Where("cache_key IN ?", keys).Delete(&CacheBlob{}).Error; err != nil {
		return fmt.Errorf("cache drop: %w", err)
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

// CacheStageStats returns each cache stage's running totals, by the
// stage's index in the chain.
func (s *Store) CacheStageStats(ctx context.Context) ([]CacheStageStats, error) {
	var out []CacheStageStats
	if err := s.db.WithContext(ctx).Order("stage").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("cache stage stats: %w", err)
	}
	return out, nil
}

// clearBatch is how many entries one transaction of CacheClear deletes,
// so that puts are never held up long.
const clearBatch = 500

// CacheClear deletes the entries the cache stage at index stage stored,
// or every entry when stage is negative, and returns how many it deleted.
// It bumps the cache's generation, so a running sift forgets the
// snapshots it holds in memory (see CacheTable).
func (s *Store) CacheClear(ctx context.Context, stage int) (int64, error) {
	var total int64
	for {
		var n int
		err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			t, err := s.begin(tx)
			if err != nil {
				return err
			}
			q := tx.Select("cache_key, bytes, stage, restricted").Limit(clearBatch)
			if stage >= 0 {
				q = q.Where("stage = ?", stage)
			}
			var batch []CacheEntry
			if err := q.Find(&batch).Error; err != nil {
				return fmt.Errorf("cache clear: %w", err)
			}
			n = len(batch)
			if err := drop(tx, t, batch, ""); err != nil {
				return err
			}
			t.stats.Generation++
			return t.commit(tx)
		})
		if err != nil {
			return total, err
		}
		total += int64(n)
		if n < clearBatch {
			return total, nil
		}
	}
}

// cacheGeneration reads the number CacheClear bumps.
func (s *Store) cacheGeneration(ctx context.Context) (int64, error) {
	var stats CacheStats
	if err := s.db.WithContext(ctx).Select("generation").Where("id = ?", statsID).Take(&stats).Error; err != nil {
		return 0, fmt.Errorf("cache generation: %w", err)
	}
	return stats.Generation, nil
}

// CacheTable is the cache as the cache stages use it (through
// stages.CacheStore),
// with the byte budget every Put keeps to, each caller class within its
// share of it, in front of which it keeps the
// most recently used snapshots in memory (a quarter of the budget, at
// most hotMax). The copies in memory are dropped within generationEvery
// of a CacheClear, from any process.
type CacheTable struct {
	*tableState
	// stage is the index of the cache stage this view stores for.
	stage int
}

// tableState is what the views of one CacheTable share.
type tableState struct {
	store *Store
	// budget is the whole table's; restricted the part of it restricted
	// callers' entries hold at most, the others' holding the rest.
	budget, restricted int64
	hot                *hot
	now                func() time.Time

	// checked is when the generation was last read (UnixNano); gen is
	// what it was.
	checked atomic.Int64
	gen     atomic.Int64

	mu      sync.Mutex
	dropped Dropped
	// tags are the cache stages' tags by index (SetTags).
	tags map[int]string
}

// SetTags names each cache stage's tag, by its index in the chain: what
// its puts record (CacheEntry.Tag).
func (c *CacheTable) SetTags(tags map[int]string) {
	c.mu.Lock()
	c.tags = maps.Clone(tags)
	c.mu.Unlock()
}

func (c *CacheTable) tag() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tags[c.stage]
}

// generationEvery is how often a hit in memory looks whether the cache
// was cleared: one read of one row, at most once a period per process.
const generationEvery = time.Second

// CacheTable returns the cache with a budget of budget bytes, all of it
// unrestricted callers' (no restricted caller's entry is kept), of which
// it keeps DefaultMemory(budget) in memory.
func (s *Store) CacheTable(budget int64) *CacheTable {
	return s.CacheTableIn(budget, DefaultMemory(budget), 0)
}

// DefaultRestrictedShare is the part of the budget restricted callers'
// entries hold at most when a cache block sets none and a caller is
// restricted.
const DefaultRestrictedShare = 0.25

// CacheTableIn returns the cache with a budget of budget bytes, of which
// restricted callers' entries hold at most restrictedShare (0 to 1) and
// the others' the rest, and of which it keeps at most memory bytes in
// memory (snapshots and their memos).
func (s *Store) CacheTableIn(budget, memory int64, restrictedShare float64) *CacheTable {
	restricted := int64(float64(budget) * min(max(restrictedShare, 0), 1))
	return &CacheTable{tableState: &tableState{store: s, budget: budget, restricted: restricted, hot: newHot(memory),
		now: time.Now, dropped: Dropped{}}}
}

// classBudget is what the entries of the class may hold.
func (t *tableState) classBudget(restricted bool) int64 {
	if restricted {
		return t.restricted
	}
	return t.budget - t.restricted
}

// DefaultMemory is what of a cache of budget bytes an instance keeps in
// memory when no cache block says: a quarter, at most 64 MiB.
func DefaultMemory(budget int64) int64 { return min(budget/4, hotMax) }

// At returns the cache as the cache stage at index stage uses it: its
// entries are counted and cleared apart from other stages'.
func (c *CacheTable) At(stage int) *CacheTable {
	return &CacheTable{tableState: c.tableState, stage: stage}
}

// Get returns the fresh snapshot under key and when it was taken. The
// snapshot may be shared with other readers: it must not be changed.
func (c *CacheTable) Get(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	snap, takenAt, _, ok, err := c.GetMemo(ctx, key)
	return snap, takenAt, ok, err
}

// GetMemo is Get, with the memo of the snapshot in memory (nil when the
// snapshot is too large to be kept there).
func (c *CacheTable) GetMemo(ctx context.Context, key string) ([]byte, time.Time, *Memo, bool, error) {
	now := c.now()
	c.checkGeneration(ctx, now)
	if snap, takenAt, memo, ok := c.hot.getMemo(key, now); ok {
		return snap, takenAt, memo, true, nil
	}
	e, ok, err := c.store.cacheGet(ctx, key, now)
	if err != nil {
		return nil, time.Time{}, nil, false, c.skipped(OpRead, c.store.note(err))
	}
	if !ok {
		return nil, time.Time{}, nil, false, nil
	}
	memo := c.hot.put(key, e.snapshot, e.takenAt, e.expires)
	return e.snapshot, e.takenAt, memo, true, nil
}

// checkGeneration empties the memory copies when the cache was cleared
// since it last looked, looking at most once per generationEvery. While
// the database cannot say, what is in memory is served: it is fresh, and
// a hit in memory is how sift answers through a database outage.
func (c *CacheTable) checkGeneration(ctx context.Context, now time.Time) {
	last := c.checked.Load()
	if now.UnixNano()-last < int64(generationEvery) || !c.checked.CompareAndSwap(last, now.UnixNano()) {
		return
	}
	gen, err := c.store.cacheGeneration(ctx)
	if err == nil && c.gen.Swap(gen) != gen {
		c.hot.reset()
	}
}

// Put stores a snapshot until expires, in the share of a caller of class
// restricted. While data_dir's disk is below min_free it stores nothing
// and returns a *FaultError (min_free), as it does for a write the
// database failed.
func (c *CacheTable) Put(ctx context.Context, key string, snapshot []byte, expires time.Time, restricted bool) error {
	return c.PutKept(ctx, key, snapshot, expires, expires, restricted)
}

// PutKept is Put of an entry the store keeps until keepUntil, past its
// freshness, for a conditional request to revalidate (GetStale).
func (c *CacheTable) PutKept(ctx context.Context, key string, snapshot []byte, expires, keepUntil time.Time, restricted bool) error {
	now := c.now()
	if _, _, below := c.store.belowFloor(time.Now()); below {
		c.hot.drop(key)
		return c.skipped(OpWrite, &FaultError{Fault: FaultMinFree, Err: errBelowFloor})
	}
	budget := c.classBudget(restricted)
	dropped, err := c.store.CachePut(ctx, key, c.tag(), c.stage, restricted, snapshot, now, expires, keepUntil, budget)
	if err != nil {
		c.hot.drop(key)
		return c.skipped(OpWrite, c.store.note(err))
	}
	c.store.faults.ok(time.Now())
	if len(dropped) > 0 {
		c.mu.Lock()
		for k, n := range dropped {
			c.dropped[k] += n
		}
		c.mu.Unlock()
	}
	if int64(len(snapshot)) <= budget {
		c.hot.put(key, snapshot, now, expires)
	}
	return nil
}

// GetStale returns the snapshot under key, fresh or not, while the store
// keeps it (CacheGetStale).
func (c *CacheTable) GetStale(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	snap, takenAt, ok, err := c.store.CacheGetStale(ctx, key)
	if err != nil {
		return nil, time.Time{}, false, c.skipped(OpRead, c.store.note(err))
	}
	return snap, takenAt, ok, nil
}

// errBelowFloor is why a put stored nothing while data_dir is below
// min_free.
var errBelowFloor = errors.New("data_dir is below the cache's min_free")

// skipped counts a read or write that failed with a fault of the store,
// and returns err.
func (c *CacheTable) skipped(op string, err error) error {
	var fe *FaultError
	if errors.As(err, &fe) {
		c.store.skips.add(SkipKey{Stage: c.stage, Op: op, Fault: fe.Fault})
	}
	return err
}

// Dropped returns how many entries this process's puts dropped since it
// started, by stage and reason.
func (c *CacheTable) Dropped() Dropped {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.dropped)
}

// Stats returns each cache stage's running totals (the database's, which
// every instance shares).
func (c *CacheTable) Stats(ctx context.Context) ([]CacheStageStats, error) {
	return c.store.CacheStageStats(ctx)
}
