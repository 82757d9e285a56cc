package batch

import (
	"context"
	"os"
	"testing"

	"github.com/siftd/sift/internal/testkit/pgtest"
	"github.com/siftd/sift/store"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

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
	st, err := store.OpenPostgres(context.Background(), pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}
