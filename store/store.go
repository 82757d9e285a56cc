// Package store keeps sift's state in a database through GORM: the cache
// of fetched documents and the batch jobs. SQLite (pure Go, one file
// under data_dir, WAL) is the default.
package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Store is an open database.
type Store struct {
	db *gorm.DB
}

// FileName is the SQLite database's name under data_dir.
const FileName = "sift.db"

// OpenSQLite opens (creating if need be) the database under dataDir and
// migrates it.
func OpenSQLite(ctx context.Context, dataDir string) (*Store, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data_dir: %w", err)
	}
	// WAL lets readers work beside the one writer; the busy timeout makes
	// a writer wait for another instead of failing.
	dsn := filepath.Join(dataDir, FileName) + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)"
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dsn, err)
	}
	s := &Store{db: db}
	if err := s.migrate(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) migrate(ctx context.Context) error {
	if err := s.db.WithContext(ctx).AutoMigrate(&CacheEntry{}, &BatchJob{}, &BatchTarget{}); err != nil {
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
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}
