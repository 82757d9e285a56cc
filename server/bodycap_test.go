package server

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
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

// TestCompressedBodyRefused: a body sent with a Content-Encoding is 415
// naming it, on both APIs, never read as JSON; identity is no coding.
func TestCompressedBodyRefused(t *testing.T) {
	t.Parallel()
	origin := fixtureOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	fmt.Fprintf(zw, `{"url":%q}`, origin.URL+"/article")
	zw.Close()
	tests := []struct {
		path, encoding string
		body           []byte
		status         int
		want           string
	}{
		{"/v1/fetch", "gzip", gz.Bytes(), 415, `unsupported: request body in Content-Encoding "gzip": send the JSON uncompressed`},
		{"/v2/scrape", "gzip", gz.Bytes(), 415, `unsupported: request body in Content-Encoding "gzip"`},
		{"/v2/scrape", "identity, br", gz.Bytes(), 415, `Content-Encoding "br"`},
		{"/v1/fetch", "identity", []byte(fmt.Sprintf(`{"url":%q}`, origin.URL+"/article")), 200, ""},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+tc.path, bytes.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Content-Encoding", tc.encoding)
		req.Header.Set("Authorization", "Bearer "+testKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if msg, _ := out["error"].(string); resp.StatusCode != tc.status || !strings.HasPrefix(msg, tc.want) && !strings.Contains(msg, tc.want) {
			t.Errorf("%s, %s: %d %v", tc.path, tc.encoding, resp.StatusCode, out)
		}
	}
}
