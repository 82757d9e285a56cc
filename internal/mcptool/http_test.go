package mcptool

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"red-team","version":"1"}}}`

// serveMCP serves h over loopback, its callers named by their
// Authorization header as the API's authentication would name them.
func serveMCP(t *testing.T, opts HTTPOptions) (*HTTP, *httptest.Server) {
	t.Helper()
	h := NewHTTP("test", http.NotFoundHandler(), opts)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.Serve(w, r, r.Header.Get("Authorization"))
	}))
	t.Cleanup(srv.Close)
	return h, srv
}

// mcpPost sends one JSON-RPC message as key, in session id ("" for
// none), with extra headers, and returns the status and session header.
func mcpPost(t *testing.T, url, key, id, body string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if id != "" {
		req.Header.Set(sessionHeader, id)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get(sessionHeader)
}

func openSessions(h *HTTP) int {
	n := 0
	for range h.sessions.srv.Sessions() {
		n++
	}
	return n
}

// TestInitializeLoopHoldsNoMore: the red team's loop, initializes never
// deleted, leaves one key at most its bound of open sessions, the oldest
// closed for each new one past it, and the goroutines they cost gone
// with them. Before the bound, 3,000 such initializes held ~3,000
// goroutines and 40 MB for good.
func TestInitializeLoopHoldsNoMore(t *testing.T) {
	h, srv := serveMCP(t, HTTPOptions{SessionsPerCaller: 4})
	status, first := mcpPost(t, srv.URL, "alice", "", initialize, nil)
	if status != 200 || first == "" {
		t.Fatalf("initialize: %d, session %q", status, first)
	}
	before := runtime.NumGoroutine()
	for range 2000 {
		if status, id := mcpPost(t, srv.URL, "mallory", "", initialize, nil); status != 200 || id == "" {
			t.Fatalf("initialize: %d, session %q", status, id)
		}
	}
	if n := openSessions(h); n > 4+1 {
		t.Errorf("%d sessions open after 2,000 initializes of one key, want at most 4 (and alice's)", n)
	}
	deadline := time.Now().Add(time.Minute)
	for runtime.NumGoroutine() > before+4*8 && time.Now().Before(deadline) {
		runtime.Gosched()
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before+4*8 {
		t.Errorf("%d goroutines after 2,000 initializes, %d before", g, before)
	}
	if status, _ := mcpPost(t, srv.URL, "alice", first, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil); status != 200 {
		t.Errorf("another key's loop closed alice's session: %d", status)
	}
}

// TestSessionsInAllAreBounded: past the bound of all keys' sessions a new
// one is a 503 with Retry-After, and one closed makes room.
func TestSessionsInAllAreBounded(t *testing.T) {
	t.Parallel()
	_, srv := serveMCP(t, HTTPOptions{Sessions: 3})
	var ids []string
	for _, key := range []string{"a", "b", "c"} {
		_, id := mcpPost(t, srv.URL, key, "", initialize, nil)
		ids = append(ids, id)
	}
	if status, _ := mcpPost(t, srv.URL, "d", "", initialize, nil); status != http.StatusServiceUnavailable {
		t.Errorf("a fourth session: %d, want 503", status)
	}
	req, _ := http.NewRequest(http.MethodDelete, srv.URL, nil)
	req.Header.Set("Authorization", "a")
	req.Header.Set(sessionHeader, ids[0])
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %v %v", resp, err)
	}
	resp.Body.Close()
	if status, _ := mcpPost(t, srv.URL, "d", "", initialize, nil); status != 200 {
		t.Errorf("after a DELETE: %d, want 200", status)
	}
}

// TestSessionBelongsToItsKey: another key cannot call, stream or delete
// a session; it is told the session does not exist, and the owner's
// session goes on. The owner is the real go-sdk client.
func TestSessionBelongsToItsKey(t *testing.T) {
	t.Parallel()
	_, srv := serveMCP(t, HTTPOptions{})
	client := mcp.NewClient(&mcp.Implementation{Name: "alice"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL,
		HTTPClient: &http.Client{Transport: withAuth{"alice"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		var body io.Reader
		if method == http.MethodPost {
			body = strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"fetch","arguments":{"url":"http://127.0.0.1/"}}}`)
		}
		req, _ := http.NewRequest(method, srv.URL, body)
		req.Header.Set("Authorization", "bob")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set(sessionHeader, cs.ID())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("bob's %s on alice's session: %d, want 404", method, resp.StatusCode)
		}
	}
	if _, err := cs.ListTools(t.Context(), nil); err != nil {
		t.Errorf("alice's session after bob's tries: %v", err)
	}
}

type withAuth struct{ key string }

func (a withAuth) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", a.key)
	return http.DefaultTransport.RoundTrip(r)
}

// TestIdleSessionCloses: a session with no request for SessionIdle is
// closed, and its ID is then unknown.
func TestIdleSessionCloses(t *testing.T) {
	t.Parallel()
	h, srv := serveMCP(t, HTTPOptions{SessionIdle: 50 * time.Millisecond})
	_, id := mcpPost(t, srv.URL, "alice", "", initialize, nil)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for openSessions(h) > 0 && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	if status, _ := mcpPost(t, srv.URL, "alice", id, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, nil); status != http.StatusNotFound {
		t.Errorf("an idle session's request: %d, want 404", status)
	}
}

// TestHostAndOrigin: behind a reverse proxy that keeps the Host header,
// the public URL's name is taken; another name on a loopback listener
// (DNS rebinding) and a foreign Origin are 403. The red team found /mcp
// refusing the proxy's Host, and never checking Origin.
func TestHostAndOrigin(t *testing.T) {
	t.Parallel()
	_, srv := serveMCP(t, HTTPOptions{PublicURL: "https://sift.example.com"})
	for _, tc := range []struct {
		header map[string]string
		want   int
	}{
		{nil, 200},
		{map[string]string{"Host": "sift.example.com"}, 200},
		{map[string]string{"Host": "SIFT.example.com:443"}, 200},
		{map[string]string{"Host": "localhost:9"}, 200},
		{map[string]string{"Host": "rebind.attacker.example"}, 403},
		{map[string]string{"Origin": "https://sift.example.com"}, 200},
		{map[string]string{"Origin": "http://localhost:6274"}, 200},
		{map[string]string{"Origin": "http://127.0.0.1:6274"}, 200},
		{map[string]string{"Origin": "https://attacker.example"}, 403},
		{map[string]string{"Origin": "null"}, 403},
	} {
		if status, _ := mcpPost(t, srv.URL, "alice", "", initialize, tc.header); status != tc.want {
			t.Errorf("%v: %d, want %d", tc.header, status, tc.want)
		}
	}
}

// TestSlowInitializesHoldOnlyTheirKeysShare: initialize requests still
// being read hold at most their key's bound of slots, so one key's slow
// requests cannot take the slots of all; before, 1,030 slow initializes of
// one key kept every other key out until the read timeout.
func TestSlowInitializesHoldOnlyTheirKeysShare(t *testing.T) {
	t.Parallel()
	s := newSessions(nil, HTTPOptions{Sessions: 10, SessionsPerCaller: 3})
	var held []*slot
	for range 3 {
		sl, ok := s.admit("mallory")
		if !ok {
			t.Fatal("mallory's own share refused")
		}
		held = append(held, sl)
	}
	if _, ok := s.admit("mallory"); ok {
		t.Error("a fourth session opened at once by one key was admitted")
	}
	if _, ok := s.admit("alice"); !ok {
		t.Error("another key was refused while one key's initializes were pending")
	}
	held[0].release()
	if _, ok := s.admit("mallory"); !ok {
		t.Error("mallory refused after one of its requests ended")
	}
}
