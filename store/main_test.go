package store

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"

	"github.com/siftd/sift/internal/pgtest"
)

// pg is the PostgreSQL server the tests share; each test gets a database
// of its own on it.
var (
	pg    *pgtest.Server
	pgErr error
	dbSeq atomic.Int32
)

func TestMain(m *testing.M) {
	pg, pgErr = pgtest.Start()
	code := m.Run()
	if pg != nil {
		pg.Stop()
	}
	os.Exit(code)
}

// opener opens a fresh, empty store.
type opener func(t *testing.T) *Store

// eachStore runs fn against SQLite and against PostgreSQL.
func eachStore(t *testing.T, fn func(t *testing.T, open opener)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, openTest) })
	t.Run("postgres", func(t *testing.T) { fn(t, openPostgresTest) })
}

func openPostgresTest(t *testing.T) *Store {
	t.Helper()
	if pgErr != nil {
		t.Fatal(pgErr)
	}
	dsn, err := pg.CreateDB(fmt.Sprintf("sift_test_%d", dbSeq.Add(1)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenPostgres(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}
