// Package siftclient calls sift's HTTP API, either over the network (the
// CLI and `sift mcp`) or in-process through the API's own handler (the
// MCP tools `sift serve` answers at /mcp), so both reach the same auth,
// gates and guard.
package siftclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultURL is where clients look for sift when SIFT_URL is unset.
const DefaultURL = "http://127.0.0.1:8890"

// maxAnswer bounds an answer read into memory: a batch with every result
// inlined is the largest.
const maxAnswer = 64 << 20

// API is sift's HTTP API as a client reaches it: over the network
// (Client) or in-process through its handler. Call sends one request; a
// nil body sends none.
type API interface {
	Call(ctx context.Context, method, path string, body any) (*Response, error)
}

// Response is one answer of sift's API, whatever its status.
type Response struct {
	Status int
	Body   []byte
	// RetryAfter is the Retry-After header in seconds, 0 when absent.
	RetryAfter int
}

// OK reports a 2xx answer.
func (r *Response) OK() bool { return r.Status/100 == 2 }

// Err is sift's error envelope as an error: its message (which starts
// with the class, "blocked: …") and hint; nil for a 2xx answer.
func (r *Response) Err() *Error {
	if r.OK() {
		return nil
	}
	e := &Error{Status: r.Status, RetryAfter: r.RetryAfter}
	var env struct {
		Error string `json:"error"`
		Hint  string `json:"hint"`
	}
	if json.Unmarshal(r.Body, &env) == nil && env.Error != "" {
		e.Message, e.Hint = env.Error, env.Hint
	} else {
		e.Message = fmt.Sprintf("sift answered %d %s", r.Status, http.StatusText(r.Status))
	}
	return e
}

// Error is a non-2xx answer of sift's API.
type Error struct {
	Status     int
	Message    string
	Hint       string
	RetryAfter int
}

func (e *Error) Error() string {
	if e.Hint != "" {
		return fmt.Sprintf("%s (hint: %s)", e.Message, e.Hint)
	}
	return e.Message
}

// Client calls a running sift over HTTP.
type Client struct {
	BaseURL string
	Key     string
	HTTP    *http.Client
}

// FromEnv is the client the CLI uses: SIFT_URL (default DefaultURL) and
// SIFT_KEY.
func FromEnv() *Client {
	base := strings.TrimRight(os.Getenv("SIFT_URL"), "/")
	if base == "" {
		base = DefaultURL
	}
	return &Client{BaseURL: base, Key: os.Getenv("SIFT_KEY"), HTTP: &http.Client{Timeout: 5 * time.Minute}}
}

// Call sends the request and reads the answer; only a failure to reach
// sift or read its answer is an error.
func (c *Client) Call(ctx context.Context, method, path string, body any) (*Response, error) {
	req, err := newRequest(ctx, method, c.BaseURL+path, body)
	if err != nil {
		return nil, err
	}
	if c.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.Key)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("reach sift at %s (set SIFT_URL): %w", c.BaseURL, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, fmt.Errorf("read sift's answer: %w", err)
	}
	return &Response{Status: resp.StatusCode, Body: raw, RetryAfter: retryAfter(resp.Header)}, nil
}

// Handler calls sift's API in-process through its HTTP handler, as the
// caller whose Authorization header it carries.
type Handler struct {
	Handler       http.Handler
	Authorization string
}

// Call runs the request through the handler.
func (h *Handler) Call(ctx context.Context, method, path string, body any) (*Response, error) {
	req, err := newRequest(ctx, method, "http://sift.internal"+path, body)
	if err != nil {
		return nil, err
	}
	req.RemoteAddr = "127.0.0.1:0"
	if h.Authorization != "" {
		req.Header.Set("Authorization", h.Authorization)
	}
	w := &recorder{header: http.Header{}}
	h.Handler.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return &Response{Status: w.status, Body: w.body.Bytes(), RetryAfter: retryAfter(w.header)}, nil
}

func newRequest(ctx context.Context, method, url string, body any) (*http.Request, error) {
	var payload io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode the request: %w", err)
		}
		payload = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, payload)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return req, nil
}

func retryAfter(h http.Header) int {
	n, err := strconv.Atoi(h.Get("Retry-After"))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// recorder is the ResponseWriter of an in-process call.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.body.Len()+len(b) > maxAnswer {
		return 0, fmt.Errorf("answer over %d bytes", maxAnswer)
	}
	return r.body.Write(b)
}
