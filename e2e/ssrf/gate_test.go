//go:build e2e

package ssrf

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/testwait"
)

// fetch posts one /v1/fetch for url and returns the status and the error
// sift answered with ("" on success).
func (s *sift) fetch(ctx context.Context, url string) (int, string, error) {
	body, _ := json.Marshal(map[string]any{"url": url})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+s.addr+"/v1/fetch", bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var answer struct {
		Error string `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&answer)
	return resp.StatusCode, answer.Error, nil
}

// originRequests counts the requests for path the test origin has logged.
func originRequests(t *testing.T, path string) int {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(os.Getenv("SIFT_HARNESS_WORK"), "origin.log"))
	if err != nil {
		t.Fatalf("origin log: %v", err)
	}
	return strings.Count(string(raw), `"path":"`+path+`"`)
}

// TestGateKeysOnCanonicalHost: one caller has one slot per host, and
// "public.sift.test." and "public.sift.test" are one host. While a fetch of
// the first spelling hangs on the origin, a fetch of the second waits in
// line for the gates' wait (1 s here) and is answered 429 busy without
// reaching the origin; a fetch of another host still goes through, so the
// refusal is the per-host gate and not the global one.
func TestGateKeysOnCanonicalHost(t *testing.T) {
	const slow = "/slowhead" // the origin holds the response until the client leaves
	s := startSift(t, caseConfig{})
	before := originRequests(t, slow)

	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, _, err := s.fetch(ctx, "http://public.sift.test."+slow)
		first <- err
	}()
	defer func() { cancel(); <-first }()
	testwait.For(t, "the first fetch to reach the origin", func() bool { return originRequests(t, slow) > before })

	status, reason, err := s.fetch(context.Background(), "http://public.sift.test"+slow)
	if err != nil {
		t.Fatal(err)
	}
	if status != http.StatusTooManyRequests || !strings.HasPrefix(reason, "busy: ") {
		t.Errorf("second fetch of the same host, spelled without the trailing dot: %d %q, want 429 busy", status, reason)
	}
	if n := originRequests(t, slow); n != before+1 {
		t.Errorf("the origin saw %d requests for %s, want 1: the second fetch was not held at the gate", n-before, slow)
	}

	status, reason, err = s.fetch(context.Background(), "http://dual.sift.test/")
	if err != nil {
		t.Fatal(err)
	}
	if status != http.StatusOK {
		t.Errorf("fetch of another host meanwhile: %d %q, want 200", status, reason)
	}
}
