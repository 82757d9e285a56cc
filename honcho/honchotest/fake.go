// Package honchotest is a loopback Honcho for tests. It speaks the real
// shapes of Honcho v3's workspace search (POST /v3/workspaces/{id}/search):
// the request body with limit 1..100, a bare JSON array of messages,
// `detail` errors, and a bearer token only when configured to want one.
package honchotest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"
)

// Request is one search the fake received.
type Request struct {
	Workspace string
	Query     string
	Limit     int
	Auth      string
}

// Server is a fake Honcho. Set its fields before the first request.
type Server struct {
	*httptest.Server
	// Messages are returned, up to the request's limit, for every search.
	Messages []map[string]any
	// Status, when not 0 or 200, is answered instead, with Honcho's body.
	Status int
	// Delay holds each answer back this long.
	Delay time.Duration
	// Key, when set, is the bearer token every request must carry.
	Key string

	mu         sync.Mutex
	searches   []Request
	unexpected []string
}

var searchPath = regexp.MustCompile(`^/v3/workspaces/([^/]+)/search$`)

// New starts a fake Honcho on loopback, closed when the test ends.
func New(t testing.TB) *Server {
	f := &Server{}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

// Searches returns the searches received so far.
func (f *Server) Searches() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.searches...)
}

// Unexpected returns every request that was not a workspace search.
func (f *Server) Unexpected() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.unexpected...)
}

func (f *Server) serve(w http.ResponseWriter, r *http.Request) {
	m := searchPath.FindStringSubmatch(r.URL.Path)
	if m == nil || r.Method != http.MethodPost {
		f.mu.Lock()
		f.unexpected = append(f.unexpected, r.Method+" "+r.URL.Path)
		f.mu.Unlock()
		writeDetail(w, http.StatusNotFound, "Resource not found")
		return
	}
	if f.Key != "" && r.Header.Get("Authorization") != "Bearer "+f.Key {
		writeDetail(w, http.StatusUnauthorized, "No access token provided")
		return
	}
	var body struct {
		Query *string `json:"query"`
		Limit *int    `json:"limit"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Query == nil {
		writeDetail(w, http.StatusUnprocessableEntity, "Field required")
		return
	}
	limit := 10
	if body.Limit != nil {
		limit = *body.Limit
	}
	if limit < 1 || limit > 100 {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": []map[string]any{{
			"type": "greater_than_equal", "loc": []string{"body", "limit"},
			"msg": "Input should be greater than or equal to 1", "input": limit,
		}}})
		return
	}
	f.mu.Lock()
	f.searches = append(f.searches, Request{Workspace: m[1], Query: *body.Query, Limit: limit, Auth: r.Header.Get("Authorization")})
	f.mu.Unlock()
	if f.Delay > 0 {
		select {
		case <-time.After(f.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if f.Status != 0 && f.Status != http.StatusOK {
		writeDetail(w, f.Status, "An unexpected error occurred")
		return
	}
	out := make([]map[string]any, 0, limit)
	for _, msg := range f.Messages {
		if len(out) == limit {
			break
		}
		full := map[string]any{"metadata": map[string]any{}, "workspace_id": m[1], "token_count": 17}
		for k, v := range msg {
			full[k] = v
		}
		out = append(out, full)
	}
	writeJSON(w, http.StatusOK, out)
}

// Message builds a message in Honcho's shape.
func Message(id, peer, content string, created time.Time) map[string]any {
	return map[string]any{
		"id": id, "content": content, "peer_id": peer, "session_id": "s-" + id,
		"created_at": created.UTC().Format("2006-01-02T15:04:05.000000Z"),
	}
}

func writeDetail(w http.ResponseWriter, status int, detail string) {
	writeJSON(w, status, map[string]any{"detail": detail})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
