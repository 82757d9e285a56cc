package store

// memoMax bounds how many derived values one snapshot in memory keeps;
// past it the oldest goes first, so a value no reader asks for any more
// (one made under an earlier configuration) gives way to current ones.
const memoMax = 8

// Memo holds what readers derive from one snapshot kept in memory (the
// decoded snapshot, an answer encoded for one shape of request), so each
// is made once however often the snapshot is read. It lives exactly as
// long as the snapshot does in memory: replaced, expired, evicted or
// cleared, the snapshot takes its memo along. What it holds counts
// against the memory layer's bytes. A nil Memo holds nothing.
type Memo struct {
	h *hot
	e *hotEntry
}

// memoValue is one derived value and the bytes it holds.
type memoValue struct {
	name  string
	value any
	size  int64
}

// Load returns the value stored under name. Values are shared by every
// reader of the snapshot: they must not be changed.
func (m *Memo) Load(name string) (any, bool) {
	if m == nil {
		return nil, false
	}
	m.h.mu.Lock()
	defer m.h.mu.Unlock()
	for _, v := range m.e.memo {
		if v.name == name {
			return v.value, true
		}
	}
	return nil, false
}

// Store keeps value, which holds about size bytes, under name, unless a
// value is there already or the snapshot has left memory.
func (m *Memo) Store(name string, value any, size int64) {
	if m == nil {
		return
	}
	h, e := m.h, m.e
	h.mu.Lock()
	defer h.mu.Unlock()
	if e.gone || size > h.max {
		return
	}
	for _, v := range e.memo {
		if v.name == name {
			return
		}
	}
	if len(e.memo) == memoMax {
		h.size -= e.memo[0].size
		e.memoSize -= e.memo[0].size
		e.memo = append(e.memo[:0], e.memo[1:]...)
	}
	e.memo = append(e.memo, memoValue{name: name, value: value, size: size})
	e.memoSize += size
	h.size += size
	for h.size > h.max && h.order.Len() > 0 {
		h.removeLocked(h.order.Back())
	}
}
