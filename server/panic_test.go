package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/internal/httpapi"
)

// TestPanicIsLoggedWithValueAndStack: the client sees only the class; the
// operator's log says what panicked and where.
func TestPanicIsLoggedWithValueAndStack(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	s := &Server{log: slog.New(slog.NewJSONHandler(&logs, nil)), now: time.Now}
	h := httpapi.LogRequests(s.log, s.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("the chain has no stage at index 3")
	})))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/fetch", nil))
	if rec.Code != http.StatusInternalServerError || strings.Contains(rec.Body.String(), "index 3") {
		t.Fatalf("answer %d %s", rec.Code, rec.Body)
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("log %q: want the panic's line and the request's", logs.String())
	}
	var line struct {
		Msg, Panic, Stack string
	}
	if err := json.Unmarshal([]byte(lines[0]), &line); err != nil {
		t.Fatalf("log %q: %v", logs.String(), err)
	}
	if line.Panic != "the chain has no stage at index 3" || !strings.Contains(line.Stack, "panic_test.go") {
		t.Fatalf("log line %+v", line)
	}
	var req struct {
		Msg    string
		Status int
		ID     string
	}
	if err := json.Unmarshal([]byte(lines[1]), &req); err != nil || req.Msg != "request" || req.Status != 500 || req.ID != rec.Header().Get(httpapi.RequestIDHeader) {
		t.Fatalf("request line %q (%v)", lines[1], err)
	}
}
