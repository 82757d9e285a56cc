package store

import (
	"container/list"
	"sync"
	"time"
)

// hotMax bounds what one instance keeps in memory of a cache whose
// blocks set no memory (DefaultMemory).
const hotMax = 64 << 20

// hot keeps the most recently used snapshots in memory, up to max bytes,
// so that a hit on a page in demand reads no database row and copies no
// snapshot. A snapshot is served from memory only while it is fresh; on
// several instances each keeps its own, so one may serve an older but
// still fresh snapshot of a key another has just replaced.
type hot struct {
	max int64

	mu    sync.Mutex
	size  int64
	order *list.List // of *hotEntry, most recently used first
	byKey map[string]*list.Element
}

type hotEntry struct {
	key              string
	snapshot         []byte
	takenAt, expires time.Time
	// memo is what readers derived from the snapshot (see Memo), and
	// memoSize the bytes it holds; gone is set once the entry has left,
	// so nothing is added to a memo no reader can reach.
	memo     []memoValue
	memoSize int64
	gone     bool
}

// size is what the entry holds in memory.
func (e *hotEntry) size() int64 { return int64(len(e.snapshot)) + e.memoSize }

func newHot(max int64) *hot {
	return &hot{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the fresh snapshot under key. The snapshot is shared: its
// readers must not change it.
func (h *hot) get(key string, now time.Time) ([]byte, time.Time, bool) {
	snap, takenAt, _, ok := h.getMemo(key, now)
	return snap, takenAt, ok
}

// getMemo is get, with the snapshot's memo.
func (h *hot) getMemo(key string, now time.Time) ([]byte, time.Time, *Memo, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	el, ok := h.byKey[key]
	if !ok {
		return nil, time.Time{}, nil, false
	}
	e := el.Value.(*hotEntry)
	if !e.expires.After(now) {
		h.removeLocked(el)
		return nil, time.Time{}, nil, false
	}
	h.order.MoveToFront(el)
	return e.snapshot, e.takenAt, &Memo{h: h, e: e}, true
}

// put keeps a snapshot, replacing the one under the same key (and its
// memo) and dropping the least recently used beyond max. It returns the
// new entry's memo, or nil when the snapshot is over max.
func (h *hot) put(key string, snapshot []byte, takenAt, expires time.Time) *Memo {
	if int64(len(snapshot)) > h.max {
		h.drop(key)
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if el, ok := h.byKey[key]; ok {
		h.removeLocked(el)
	}
	e := &hotEntry{key: key, snapshot: snapshot, takenAt: takenAt, expires: expires}
	h.byKey[key] = h.order.PushFront(e)
	h.size += int64(len(snapshot))
	for h.size > h.max {
		h.removeLocked(h.order.Back())
	}
	return &Memo{h: h, e: e}
}

// drop forgets the snapshot under key.
func (h *hot) drop(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if el, ok := h.byKey[key]; ok {
		h.removeLocked(el)
	}
}

func (h *hot) removeLocked(el *list.Element) {
	e := h.order.Remove(el).(*hotEntry)
	delete(h.byKey, e.key)
	h.size -= e.size()
	e.gone = true
}

// reset forgets every snapshot.
func (h *hot) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for el := h.order.Front(); el != nil; el = el.Next() {
		el.Value.(*hotEntry).gone = true
	}
	h.order.Init()
	clear(h.byKey)
	h.size = 0
}
