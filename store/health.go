package store

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// faultWindow is how long a failed read or write keeps the store
// reported degraded when nothing has failed since: long enough that a
// poll of /healthz between two failing requests sees it, short enough
// that an idle sift whose disk came back says so soon.
const faultWindow = 30 * time.Second

// faults is the store's recent record of failures: the fault of the spell
// under way, when it began and when it last failed. A cache write that
// works ends the spell, as does faultWindow without a failure.
type faults struct {
	mu    sync.Mutex
	fault Fault
	since time.Time
	last  time.Time
	log   *slog.Logger
	// failed counts the failures of the spell under way.
	failed int64
}

// fail records a failure; a new spell, or another fault, is logged once
// (the driver's error with it, for the operator).
func (f *faults) fail(fault Fault, err error, now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fault != fault || now.Sub(f.last) >= faultWindow {
		f.fault, f.since, f.failed = fault, now, 0
		f.logger().Warn("store degraded: reads and writes of the cache are skipped until it recovers",
			"fault", string(fault), "err", err)
	}
	f.last = now
	f.failed++
}

// ok records a write that worked: a spell under way ends.
func (f *faults) ok(now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.endLocked(now)
}

// current returns the spell under way, ending one that has had no failure
// for faultWindow.
func (f *faults) current(now time.Time) (Fault, time.Time, int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fault != "" && now.Sub(f.last) >= faultWindow {
		f.endLocked(now)
	}
	return f.fault, f.since, f.failed
}

func (f *faults) endLocked(now time.Time) {
	if f.fault == "" {
		return
	}
	f.logger().Info("store recovered", "fault", string(f.fault), "failures", f.failed, "after", now.Sub(f.since).Round(time.Millisecond).String())
	f.fault, f.failed = "", 0
}

func (f *faults) logger() *slog.Logger {
	if f.log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return f.log
}

// SetLogger is where the store says when it becomes degraded and when it
// recovers.
func (s *Store) SetLogger(log *slog.Logger) {
	s.faults.mu.Lock()
	s.faults.log = log
	s.faults.mu.Unlock()
}

// note records how a read or write ended and returns its error as a
// *FaultError when it is a fault of the store's (a request's context
// ending is not); a nil error records nothing, since a read that works
// says nothing of writes.
func (s *Store) note(err error) error {
	if err == nil {
		return nil
	}
	fault := s.faultOf(err)
	if fault == "" {
		return err
	}
	s.faults.fail(fault, err, time.Now())
	return &FaultError{Fault: fault, Err: err}
}

// Health is the store as /healthz reports it.
type Health struct {
	// Fault is why the store is degraded; "" when it is not.
	Fault Fault
	// Detail says what the fault means for sift, in words that name
	// nothing of the database's address or user.
	Detail string
	// Since is when the spell began (zero for a fault found now).
	Since time.Time
}

// Degraded reports whether the store has a fault.
func (h Health) Degraded() bool { return h.Fault != "" }

// String is "ok", or "degraded: FAULT: DETAIL".
func (h Health) String() string {
	if !h.Degraded() {
		return "ok"
	}
	return fmt.Sprintf("degraded: %s: %s", h.Fault, h.Detail)
}

// Health reports whether the store is degraded, and why: the database
// does not answer, data_dir's disk is below min_free, or reads or writes
// failed lately (disk full, read-only, unreachable). A degraded store
// costs the cache, never an answer: sift is still healthy.
func (s *Store) Health(ctx context.Context) Health {
	now := time.Now()
	if err := s.Ping(ctx); err != nil {
		if f := s.faultOf(err); f != "" {
			s.faults.fail(f, err, now)
		}
	}
	if free, min, below := s.belowFloor(now); below {
		return Health{Fault: FaultMinFree, Detail: fmt.Sprintf("data_dir has %s free, below the cache's min_free of %s: the cache stores nothing until there is room",
			size(free), size(min))}
	}
	fault, since, failed := s.faults.current(now)
	if fault == "" {
		return Health{}
	}
	return Health{Fault: fault, Since: since, Detail: s.faultDetail(fault, failed)}
}

// faultDetail says what a fault costs.
func (s *Store) faultDetail(f Fault, failed int64) string {
	where := "the database's disk is full"
	switch {
	case f == FaultDiskFull && !s.shared:
		where = "the disk under data_dir is full"
	case f == FaultReadOnly && !s.shared:
		where = "data_dir is read-only"
	case f == FaultReadOnly:
		where = "the database is read-only"
	case f == FaultUnreachable:
		where = "the database does not answer"
	case f == FaultOther:
		where = "the database fails"
	}
	return fmt.Sprintf("%s; %d reads or writes failed: cache reads are misses, cache writes are skipped, batch calls answer unavailable", where, failed)
}
