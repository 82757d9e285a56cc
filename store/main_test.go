package store

import (
	"context"
	"os"
	"testing"

	"github.com/siftd/sift/internal/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// opener opens a fresh, empty store.
type opener func(t *testing.T) *Store

// eachStore runs fn against SQLite and against PostgreSQL.
func eachStore(t *testing.T, fn func(t *testing.T, open opener)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, openTest) })
	t.Run("postgres", func(t *testing.T) { fn(t, openPostgresTest) })
}

func openPostgresTest(t *testing.T) *Store {
	t.Helper()
	s, err := OpenPostgres(context.Background(), pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}
