// Package store keeps sift's state in a database through GORM: the cache
// of fetched documents and the batch jobs. SQLite (pure Go, one file
// under data_dir, WAL) is the default.
package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/glebarez/sqlite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/siftd/sift/config"
)

// Store is an open database.
type Store struct {
	db *gorm.DB
	// shared is set for a database several sift instances may use at
	// once (PostgreSQL): batch claims then lock rows and expire, and
	// start-up leaves other instances' work alone.
	shared bool
	// warnings are what the operator should hear about at start.
	warnings []string
	// dir is data_dir, where the SQLite database lives; "" on PostgreSQL.
	dir string
	// faults records the failures of reads and writes, for /healthz;
	// floor is the cache's min_free; skips counts the cache reads and
	// writes skipped, for the metrics. All three outlive a reload.
	faults faults
	floor  floor
	skips  skips
	// purge stops the background purges (PurgeInBackground) at Close.
	purge struct {
		sync.Mutex
		stop []func()
	}
}

// Warnings are problems found while opening the store that do not stop
// sift, for the log.
func (s *Store) Warnings() []string { return s.warnings }

// Open opens the configured database: SQLite under dataDir, or PostgreSQL
// at cfg.DSN.
func Open(ctx context.Context, cfg config.Store, dataDir string) (*Store, error) {
	switch cfg.Driver {
	case "", "sqlite":
		return OpenSQLite(ctx, dataDir)
	case "postgres":
		return OpenPostgres(ctx, cfg.DSN)
	}
	return nil, fmt.Errorf("store driver %q is not supported", cfg.Driver)
}

// OpenPostgres connects to PostgreSQL at dsn and migrates it. Several sift
// instances may share the database.
func OpenPostgres(ctx context.Context, dsn string) (*Store, error) {
	if dsn == "" {
		return nil, errors.New("postgres: empty dsn (is the dsn_env variable set?)")
	}
	db, err := gorm.Open(postgres.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	s := &Store{db: db, shared: true}
	if err := s.migrate(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// Shared reports whether several sift instances may use the database.
func (s *Store) Shared() bool { return s.shared }

// Advisory lock keys (PostgreSQL) that serialise work across instances.
const (
	migrateLock = 0x51f7_0001
	submitLock  = 0x51f7_0002
)

// FileName is the SQLite database's name under data_dir.
const FileName = "sift.db"

// OpenSQLite opens (creating if need be) the database under dataDir and
// migrates it.
func OpenSQLite(ctx context.Context, dataDir string) (*Store, error) {
	warning, err := prepareSQLite(dataDir)
	if err != nil {
		return nil, err
	}
	// WAL lets readers work beside the one writer; the busy timeout makes
	// a writer wait for another instead of failing; immediate transactions
	// take the write lock when they begin, since one that read first and
	// then writes cannot wait for a writer that committed meanwhile (it
	// fails SQLITE_BUSY at once).
	dsn := filepath.Join(dataDir, FileName) + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dsn, err)
	}
	s := &Store{db: db, dir: dataDir}
	if warning != "" {
		s.warnings = append(s.warnings, warning)
	}
	if err := s.migrate(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) migrate(ctx context.Context) error {
	if s.shared {
		// Instances starting together must not race to create tables.
		return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			if err := tx.Exec("SELECT pg_advisory_xact_lock(?)", migrateLock).Error; err != nil {
				return fmt.Errorf("migrate lock: %w", err)
			}
			if err := migrateTables(tx); err != nil {
				return err
			}
			return s.rebuildUsage(tx)
		})
	}
	if err := migrateTables(s.db.WithContext(ctx)); err != nil {
		return err
	}
	return s.db.WithContext(ctx).Transaction(s.rebuildUsage)
}

// migrateTables creates or updates every table.
func migrateTables(db *gorm.DB) error {
	if err := migrateCache(db); err != nil {
		return fmt.Errorf("migrate cache: %w", err)
	}
	if err := db.AutoMigrate(&BatchJob{}, &BatchTarget{}, &BatchUsage{}, &PageSnapshot{}); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// Ping checks the database answers, for /healthz.
func (s *Store) Ping(ctx context.Context) error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

// Close closes the database.
func (s *Store) Close() error {
	s.purge.Lock()
	stops := s.purge.stop
	s.purge.stop = nil
	s.purge.Unlock()
	for _, stop := range stops {
		stop()
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}
