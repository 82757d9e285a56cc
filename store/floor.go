package store

import (
	"sync"
	"time"
)

// floorEvery is how often the free space under data_dir is read again:
// a put reads a remembered figure, not the file system.
const floorEvery = time.Second

// floor is min_free: the free space the disk under data_dir keeps, below
// which the cache stores nothing, so a cache can never fill the disk that
// the batch results and the database's own journal need.
type floor struct {
	mu      sync.Mutex
	min     int64
	free    int64
	checked time.Time
	known   bool // free was read (false where the platform cannot say)
}

// SetMinFree sets the free space data_dir keeps (0: none). It applies to
// SQLite, whose file is under data_dir; PostgreSQL's disk is its server's.
func (s *Store) SetMinFree(n int64) {
	s.floor.mu.Lock()
	defer s.floor.mu.Unlock()
	s.floor.min, s.floor.checked = n, time.Time{}
}

// belowFloor reports whether data_dir's disk has less free than min_free,
// with both figures.
func (s *Store) belowFloor(now time.Time) (free, min int64, below bool) {
	if s.dir == "" {
		return 0, 0, false
	}
	f := &s.floor
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.min <= 0 {
		return 0, 0, false
	}
	if now.Sub(f.checked) >= floorEvery {
		f.free, f.known = freeBytes(s.dir)
		f.checked = now
	}
	return f.free, f.min, f.known && f.free < f.min
}
