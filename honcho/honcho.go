// Package honcho is a client for the one Honcho route sift uses: workspace
// search (POST /v3/workspaces/{workspace}/search), retrieval only. sift never
// writes to Honcho and never calls its dialectic (LLM) routes.
package honcho

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/siftd/sift/guard"
)

// Message is one hit of a workspace search, as Honcho returns it.
type Message struct {
	ID          string         `json:"id"`
	Content     string         `json:"content"`
	PeerID      string         `json:"peer_id"`
	SessionID   string         `json:"session_id"`
	Metadata    map[string]any `json:"metadata"`
	CreatedAt   time.Time      `json:"created_at"`
	WorkspaceID string         `json:"workspace_id"`
	TokenCount  int            `json:"token_count"`
}

// maxResponse bounds what a search answer may weigh: 100 messages of
// generous size.
const maxResponse = 4 << 20

// Client searches one Honcho server.
type Client struct {
	base *url.URL
	key  string
	http *http.Client
}

// New returns a client for the Honcho at baseURL ("http://host:8000"). key,
// when set, is sent as a bearer token. Redirects are never followed: the
// operator named the server, and an answer cannot send sift elsewhere;
// proxy settings from the environment are ignored (guard.NewOperatorClient).
func New(baseURL, key string, timeout time.Duration) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("honcho: %q is not an http(s) URL", baseURL)
	}
	return &Client{base: u, key: key, http: guard.NewOperatorClient(timeout)}, nil
}

// StatusError is a non-200 answer; Detail is Honcho's `detail` when it
// sent one.
type StatusError struct {
	Status int
	Detail string
}

func (e *StatusError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("honcho: HTTP %d", e.Status)
	}
	return fmt.Sprintf("honcho: HTTP %d: %s", e.Status, e.Detail)
}

// HTTPStatus is the status Honcho answered.
func (e *StatusError) HTTPStatus() int { return e.Status }

// Search runs a workspace search for query and returns up to limit
// messages, most relevant first.
func (c *Client) Search(ctx context.Context, workspace, query string, limit int) ([]Message, error) {
	if workspace == "" {
		return nil, errors.New("honcho: no workspace")
	}
	body, err := json.Marshal(map[string]any{"query": query, "limit": limit})
	if err != nil {
		return nil, fmt.Errorf("honcho: encode search: %w", err)
	}
	u := c.base.JoinPath("v3", "workspaces", workspace, "search")
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("honcho: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("honcho: search: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, fmt.Errorf("honcho: read search answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{Status: resp.StatusCode, Detail: detail(raw)}
	}
	if len(raw) > maxResponse {
		return nil, fmt.Errorf("honcho: search answer over %d bytes", maxResponse)
	}
	var msgs []Message
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return nil, fmt.Errorf("honcho: search answer is not a JSON array of messages: %w", err)
	}
	return msgs, nil
}

// detail pulls a readable `detail` out of an error body: a string, or the
// first message of a validation error list.
func detail(raw []byte) string {
	var e struct {
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(raw, &e) != nil || len(e.Detail) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(e.Detail, &s) == nil {
		return s
	}
	var list []struct {
		Msg string `json:"msg"`
	}
	if json.Unmarshal(e.Detail, &list) == nil && len(list) > 0 {
		return list[0].Msg
	}
	return ""
}
