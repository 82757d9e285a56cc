package store

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/diskfault"
	"github.com/siftd/sift/internal/testkit/pgtest"
	"github.com/siftd/sift/internal/testkit/testenv"
)

// randomSnapshot is n bytes SQLite cannot fit in pages it already has.
func randomSnapshot(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// putUntilFault puts fresh keys until a put fails, and returns its error;
// a disk that takes max puts never failed.
func putUntilFault(t *testing.T, c *CacheTable, max int) error {
	t.Helper()
	ctx := context.Background()
	for i := range max {
		if err := c.Put(ctx, fmt.Sprintf("fill-%d", i), randomSnapshot(t, 256<<10), time.Now().Add(time.Hour), false); err != nil {
			return err
		}
	}
	t.Fatalf("%d puts of 256 KiB on a full disk all worked", max)
	return nil
}

func wantFault(t *testing.T, err error, want Fault) {
	t.Helper()
	var fe *FaultError
	if !errors.As(err, &fe) {
		t.Fatalf("put failed with %v (%T), not a *FaultError", err, err)
	}
	if fe.Fault != want {
		t.Fatalf("fault %q (%v), want %q", fe.Fault, fe.Err, want)
	}
}

// TestFullDiskIsAFaultOfTheCache: SQLite on a real tmpfs that is full
// fails a cache write as disk_full, counted and reported by Health; a read
// still works; when room comes back a write works and the store is ok.
func TestFullDiskIsAFaultOfTheCache(t *testing.T) {
	disk, err := diskfault.Small(t, 8<<20)
	if errors.Is(err, diskfault.ErrCannotMount) {
		testenv.Missing(t, "a tmpfs to fill (mount, as root)", "run the tests as root")
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := OpenSQLite(ctx, disk.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	c := s.CacheTable(64 << 20)
	if err := c.Put(ctx, "kept", []byte("snapshot"), time.Now().Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	if h := s.Health(ctx); h.Degraded() {
		t.Fatalf("healthy store reads %s", h)
	}
	disk.Fill(t)
	wantFault(t, putUntilFault(t, c, 40), FaultDiskFull)
	if h := s.Health(ctx); h.Fault != FaultDiskFull {
		t.Fatalf("full disk: health %s, want disk_full", h)
	} else {
		t.Logf("health: %s", h)
	}
	if n := s.CacheSkips()[SkipKey{Stage: 0, Op: OpWrite, Fault: FaultDiskFull}]; n < 1 {
		t.Errorf("skipped writes counted %d, want at least 1: %v", n, s.CacheSkips())
	}
	if snap, _, ok, err := c.Get(ctx, "kept"); err != nil || !ok || string(snap) != "snapshot" {
		t.Errorf("read on a full disk: %q %v %v", snap, ok, err)
	}
	disk.Free(t)
	if err := c.Put(ctx, "after", []byte("snapshot"), time.Now().Add(time.Hour), false); err != nil {
		t.Fatalf("put once room came back: %v", err)
	}
	if h := s.Health(ctx); h.Degraded() {
		t.Fatalf("room came back and a write worked, yet health reads %s", h)
	}
}

// TestReadOnlyDiskIsAFaultOfTheCache: SQLite on an ext4 the kernel turned
// read-only under the open database fails writes as read_only.
func TestReadOnlyDiskIsAFaultOfTheCache(t *testing.T) {
	disk, err := diskfault.Breakable(t)
	if errors.Is(err, diskfault.ErrCannotMount) {
		testenv.Missing(t, "an ext4 image to break (mount, as root): "+err.Error(), "run the tests as root with e2fsprogs")
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := OpenSQLite(ctx, disk.Dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	c := s.CacheTable(64 << 20)
	if err := c.Put(ctx, "kept", []byte("snapshot"), time.Now().Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	disk.Break(t)
	err = c.Put(ctx, "next", randomSnapshot(t, 64<<10), time.Now().Add(time.Hour), false)
	wantFault(t, err, FaultReadOnly)
	if h := s.Health(ctx); h.Fault != FaultReadOnly {
		t.Fatalf("read-only disk: health %s, want read_only", h)
	} else {
		t.Logf("health: %s", h)
	}
}

// TestMinFreeStopsWritesBeforeTheDiskIsFull: below min_free a put stores
// nothing, says min_free, and Health says so; at 0 the floor is off.
func TestMinFreeStopsWritesBeforeTheDiskIsFull(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	c := s.CacheTable(1 << 20)
	free, ok := freeBytes(s.dir)
	if !ok {
		t.Skip("this platform cannot read free space")
	}
	s.SetMinFree(free + 1<<40)
	wantFault(t, c.Put(ctx, "k", []byte("x"), time.Now().Add(time.Hour), false), FaultMinFree)
	if _, _, ok, _ := c.Get(ctx, "k"); ok {
		t.Error("a put below min_free stored its entry")
	}
	if h := s.Health(ctx); h.Fault != FaultMinFree {
		t.Errorf("below min_free: health %s", h)
	} else {
		t.Logf("health: %s", h)
	}
	if n := s.CacheSkips()[SkipKey{Stage: 0, Op: OpWrite, Fault: FaultMinFree}]; n != 1 {
		t.Errorf("skips counted %d, want 1", n)
	}
	s.SetMinFree(0)
	if err := c.Put(ctx, "k", []byte("x"), time.Now().Add(time.Hour), false); err != nil {
		t.Fatalf("min_free 0: %v", err)
	}
	if h := s.Health(ctx); h.Degraded() {
		t.Errorf("min_free 0: health %s", h)
	}
}

// TestPostgresDownIsAFaultOfTheCache: a PostgreSQL that stops fails reads
// and writes as unreachable, whose text names nothing of the database;
// once it is back, the same store works again without a restart.
func TestPostgresDownIsAFaultOfTheCache(t *testing.T) {
	srv := pgtest.New(t)
	dsn, err := srv.CreateDB("sift_faults")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := OpenPostgres(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	c := s.CacheTable(1 << 20)
	if err := c.Put(ctx, "kept", []byte("snapshot"), time.Now().Add(time.Hour), false); err != nil {
		t.Fatal(err)
	}
	srv.Down(t)
	c.hot.drop("kept") // read the database, not this instance's memory
	_, _, ok, err := c.Get(ctx, "kept")
	if ok {
		t.Fatal("a read with the database down was a hit")
	}
	wantFault(t, err, FaultUnreachable)
	err = c.Put(ctx, "next", []byte("snapshot"), time.Now().Add(time.Hour), false)
	wantFault(t, err, FaultUnreachable)
	if msg := err.Error(); msg != "storage unavailable (unreachable)" {
		t.Errorf("a fault reads %q", msg)
	}
	if h := s.Health(ctx); h.Fault != FaultUnreachable {
		t.Fatalf("database down: health %s", h)
	} else {
		t.Logf("health: %s", h)
	}
	srv.Up(t)
	if err := c.Put(ctx, "next", []byte("snapshot"), time.Now().Add(time.Hour), false); err != nil {
		t.Fatalf("put once the database was back: %v", err)
	}
	if h := s.Health(ctx); h.Degraded() {
		t.Fatalf("database back: health %s", h)
	}
}
