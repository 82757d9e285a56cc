package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingReader is an endless body of spaces that counts what was read
// of it.
type countingReader struct{ n atomic.Int64 }

func (r *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	r.n.Add(int64(len(p)))
	return len(p), nil
}

// TestRequestBodyOverTheCap: a body over a route's cap is 413 too_large
// on both APIs, with a message naming the limit: answered before the body
// is read when its length is declared (a client that sent Expect:
// 100-continue then sends none of it), and once the cap is passed when it
// is not.
func TestRequestBodyOverTheCap(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	const size = 50 << 20
	for _, route := range []string{"/v1/fetch", "/v2/scrape", "/v2/search", "/v1/search"} {
		for _, tc := range []struct {
			name           string
			expect, length bool
		}{{"Expect: 100-continue", true, true}, {"Content-Length", false, true}, {"chunked", false, false}} {
			t.Run(route+" "+tc.name, func(t *testing.T) {
				body := &countingReader{}
				var rd io.Reader = io.LimitReader(body, size)
				req, _ := http.NewRequest(http.MethodPost, srv.URL+route, rd)
				if tc.length {
					req.ContentLength = size
				} else {
					req.ContentLength = -1
				}
				req.Header.Set("Authorization", "Bearer "+testKey)
				req.Header.Set("Content-Type", "application/json")
				if tc.expect {
					req.Header.Set("Expect", "100-continue")
				}
				client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: 30 * time.Second}}
				defer client.CloseIdleConnections()
				resp, err := client.Do(req)
				if err != nil {
					t.Fatalf("no answer: %v", err)
				}
				defer resp.Body.Close()
				var out map[string]any
				if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
					t.Fatal(err)
				}
				msg, _ := out["error"].(string)
				if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.HasPrefix(msg, "too_large: the request body") ||
					!strings.Contains(msg, "65536-byte limit") {
					t.Errorf("%d %v, want 413 too_large naming the limit", resp.StatusCode, out)
				}
				if tc.expect && body.n.Load() > 0 {
					t.Errorf("the client sent %d bytes of a body sift refused before reading", body.n.Load())
				}
			})
		}
	}
}
