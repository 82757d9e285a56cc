package search

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Brave queries Brave's LLM Context API (GET /res/v1/llm/context?q=…),
// which answers with grounding snippets per URL.
type Brave struct {
	BaseURL string // https://api.search.brave.com
	Key     string // X-Subscription-Token
	Client  *http.Client
}

type braveResponse struct {
	Grounding struct {
		Generic []braveGrounding `json:"generic"`
	} `json:"grounding"`
	Sources map[string]struct {
		Title string `json:"title"`
	} `json:"sources"`
}

type braveGrounding struct {
	URL      string   `json:"url"`
	Title    string   `json:"title"`
	Snippets []string `json:"snippets"`
}

// Name labels Brave's results.
func (b *Brave) Name() string { return "brave_llm" }

// Search asks Brave for query.
func (b *Brave) Search(ctx context.Context, query string, limit int) (*Found, error) {
	q := url.Values{"q": {query}, "count": {strconv.Itoa(min(max(limit, 1), 50))}}
	u := strings.TrimRight(b.BaseURL, "/") + "/res/v1/llm/context?" + q.Encode()
	body, err := get(ctx, b.Client, u, http.Header{"X-Subscription-Token": {b.Key}})
	if err != nil {
		return nil, fmt.Errorf("brave: %w", err)
	}
	var resp braveResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("brave: malformed answer: %w", err)
	}
	var out []Result
	for _, g := range resp.Grounding.Generic {
		if g.URL == "" || len(out) == limit {
			continue
		}
		title := g.Title
		if title == "" {
			title = resp.Sources[g.URL].Title
		}
		out = append(out, Result{URL: g.URL, Title: title, Snippet: firstText(g.Snippets), Chunks: g.Snippets, Sources: []string{b.Name()}})
	}
	return &Found{Results: out}, nil
}

// firstText returns the first snippet that is prose rather than a
// JSON-serialised structure (Brave sends tables and code that way).
func firstText(snippets []string) string {
	for _, s := range snippets {
		t := strings.TrimSpace(s)
		if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
			continue
		}
		return t
	}
	return ""
}
