package store

import (
	"container/list"
	"sync"
	"time"
)

// hotMax bounds the snapshots one instance keeps in memory.
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
}

func newHot(max int64) *hot {
	return &hot{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the fresh snapshot under key. The snapshot is shared: its
// readers must not change it.
func (h *hot) get(key string, now time.Time) ([]byte, time.Time, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	el, ok := h.byKey[key]
	if !ok {
		return nil, time.Time{}, false
	}
	e := el.Value.(*hotEntry)
	if !e.expires.After(now) {
		h.removeLocked(el)
		return nil, time.Time{}, false
	}
	h.order.MoveToFront(el)
	return e.snapshot, e.takenAt, true
}

// put keeps a snapshot, replacing the one under the same key and dropping
// the least recently used beyond max.
func (h *hot) put(key string, snapshot []byte, takenAt, expires time.Time) {
	if int64(len(snapshot)) > h.max {
		h.drop(key)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if el, ok := h.byKey[key]; ok {
		h.removeLocked(el)
	}
	h.byKey[key] = h.order.PushFront(&hotEntry{key: key, snapshot: snapshot, takenAt: takenAt, expires: expires})
	h.size += int64(len(snapshot))
	for h.size > h.max {
		h.removeLocked(h.order.Back())
	}
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
	h.size -= int64(len(e.snapshot))
}

// reset forgets every snapshot.
func (h *hot) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.order.Init()
	clear(h.byKey)
	h.size = 0
}
