package batch

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/siftd/sift/internal/pgtest"
	"github.com/siftd/sift/store"
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

// opener opens a fresh, empty store, closed when the test ends.
type opener func(t *testing.T) *store.Store

// eachStore runs fn against SQLite and against PostgreSQL.
func eachStore(t *testing.T, fn func(t *testing.T, open opener)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, openSQLite) })
	t.Run("postgres", func(t *testing.T) { fn(t, openPostgres) })
}

func openSQLite(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.OpenSQLite(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

func openPostgres(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.OpenPostgres(context.Background(), postgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// postgresDSN creates a fresh database and returns its DSN.
func postgresDSN(t *testing.T) string {
	t.Helper()
	if pgErr != nil {
		t.Fatal(pgErr)
	}
	dsn, err := pg.CreateDB(fmt.Sprintf("sift_batch_%d_%d", time.Now().UnixNano()%1e6, dbSeq.Add(1)))
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}
