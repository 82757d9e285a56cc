package mcptool

import (
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionHeader carries a streamable HTTP session's ID.
const sessionHeader = "Mcp-Session-Id"

// sessions keeps who opened each MCP session and bounds how many are
// open: each costs goroutines and memory until it closes, and a client
// that initializes in a loop and never deletes would otherwise hold them
// for good.
type sessions struct {
	srv       *mcp.Server
	perCaller int
	max       int
	now       func() time.Time

	mu sync.Mutex
	// byID holds each open session's owner and last use.
	byID map[string]*session
	// pending counts the sessions being opened, by owner: taken before
	// their IDs are known, so concurrent initializes cannot pass a bound.
	pending map[string]int
}

// session is one open session of owner's.
type session struct {
	owner    string
	lastUsed time.Time
}

func newSessions(srv *mcp.Server, opts HTTPOptions) *sessions {
	s := &sessions{srv: srv, perCaller: opts.SessionsPerCaller, max: opts.Sessions, now: time.Now,
		byID: map[string]*session{}, pending: map[string]int{}}
	if s.perCaller <= 0 {
		s.perCaller = DefaultSessionsPerCaller
	}
	if s.max <= 0 {
		s.max = DefaultSessions
	}
	return s
}

// use says whether the session id is open and owner's, and marks it used.
func (s *sessions) use(id, owner string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.byID[id]
	if !ok || sess.owner != owner {
		return false
	}
	sess.lastUsed = s.now()
	return true
}

// slot is a session being opened.
type slot struct {
	s      *sessions
	owner  string
	once   sync.Once
	opened func(id string)
}

// admit takes a slot for a new session of owner's: past owner's bound its
// least recently used session is closed; past the bound of all it is
// refused, and so is one more while owner's bound of sessions are still
// being opened (no session to close yet), so one key's slow initialize
// requests cannot hold the slots of all.
func (s *sessions) admit(owner string) (*slot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending[owner] >= s.perCaller {
		return nil, false
	}
	if s.count(owner) >= s.perCaller || len(s.byID)+s.pendingAll() >= s.max {
		s.forgetClosed()
	}
	if s.count(owner) >= s.perCaller {
		s.closeOldest(owner)
	}
	if len(s.byID)+s.pendingAll() >= s.max {
		return nil, false
	}
	s.pending[owner]++
	sl := &slot{s: s, owner: owner}
	sl.opened = func(id string) { sl.once.Do(func() { s.opened(owner, id) }) }
	return sl, true
}

// release gives back a slot whose request has ended: the session it
// opened, if any, is counted by its ID from then on.
func (sl *slot) release() {
	sl.once.Do(func() { sl.s.opened(sl.owner, "") })
}

// opened turns owner's pending slot into the session id ("" when the
// request opened none).
func (s *sessions) opened(owner, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending[owner]--; s.pending[owner] <= 0 {
		delete(s.pending, owner)
	}
	if id != "" {
		s.byID[id] = &session{owner: owner, lastUsed: s.now()}
	}
}

// count is owner's open and pending sessions. s.mu is held.
func (s *sessions) count(owner string) int {
	n := s.pending[owner]
	for _, sess := range s.byID {
		if sess.owner == owner {
			n++
		}
	}
	return n
}

func (s *sessions) pendingAll() int {
	n := 0
	for _, p := range s.pending {
		n += p
	}
	return n
}

// forgetClosed drops the sessions the SDK has closed since (idle, deleted
// or failed to initialize). s.mu is held.
func (s *sessions) forgetClosed() {
	open := map[string]bool{}
	for ss := range s.srv.Sessions() {
		open[ss.ID()] = true
	}
	for id := range s.byID {
		if !open[id] {
			delete(s.byID, id)
		}
	}
}

// closeOldest closes owner's least recently used session. s.mu is held.
func (s *sessions) closeOldest(owner string) {
	oldest := ""
	for id, sess := range s.byID {
		if sess.owner == owner && (oldest == "" || sess.lastUsed.Before(s.byID[oldest].lastUsed)) {
			oldest = id
		}
	}
	if oldest == "" {
		return
	}
	delete(s.byID, oldest)
	for ss := range s.srv.Sessions() {
		if ss.ID() == oldest {
			_ = ss.Close()
			return
		}
	}
}

// sessionWriter learns the ID of the session a request opens from the
// answer's header, before the client can read it and send the next
// request.
type sessionWriter struct {
	http.ResponseWriter
	opened func(id string)
	wrote  bool
}

func (w *sessionWriter) WriteHeader(status int) {
	if !w.wrote {
		w.wrote = true
		if id := w.Header().Get(sessionHeader); id != "" && status < 300 {
			w.opened(id)
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *sessionWriter) Write(p []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

// Flush passes flushes through, for the event streams.
func (w *sessionWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *sessionWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
