package search

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// SearXNG queries a SearXNG instance's JSON API
// (GET /search?q=…&format=json), which must have the json format enabled.
type SearXNG struct {
	BaseURL string
	Client  *http.Client
}

// searxngResponse is the part of SearXNG's answer sift reads; other keys
// vary between versions and engines and are ignored.
type searxngResponse struct {
	Results []struct {
		URL     string   `json:"url"`
		Title   string   `json:"title"`
		Content string   `json:"content"`
		Engines []string `json:"engines"`
	} `json:"results"`
	Answers []struct {
		Answer string `json:"answer"`
	} `json:"answers"`
	Infoboxes []struct {
		Infobox string `json:"infobox"`
		Content string `json:"content"`
	} `json:"infoboxes"`
	UnresponsiveEngines [][]string `json:"unresponsive_engines"`
}

// Name labels SearXNG's results.
func (s *SearXNG) Name() string { return "searxng" }

// Search asks SearXNG for query.
func (s *SearXNG) Search(ctx context.Context, query string, limit int) (*Found, error) {
	u := strings.TrimRight(s.BaseURL, "/") + "/search?" + url.Values{"q": {query}, "format": {"json"}}.Encode()
	body, err := get(ctx, s.Client, u, nil)
	if err != nil {
		return nil, fmt.Errorf("searxng: %w", err)
	}
	var resp searxngResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("searxng: malformed answer: %w", err)
	}
	found := &Found{}
	for _, r := range resp.Results {
		if r.URL == "" || len(found.Results) == limit {
			continue
		}
		found.Results = append(found.Results, Result{URL: r.URL, Title: r.Title, Snippet: r.Content, Sources: []string{s.Name()}})
	}
	for _, a := range resp.Answers {
		if a.Answer != "" {
			found.Answers = append(found.Answers, a.Answer)
		}
	}
	for _, ib := range resp.Infoboxes {
		if ib.Content != "" {
			found.Answers = append(found.Answers, strings.TrimSpace(ib.Infobox+": "+ib.Content))
		}
	}
	for _, e := range resp.UnresponsiveEngines {
		if len(e) == 2 {
			found.Warnings = append(found.Warnings, fmt.Sprintf("searxng engine %s did not answer (%s)", e[0], e[1]))
		}
	}
	return found, nil
}

// maxAnswer bounds a backend's answer body.
const maxAnswer = 4 << 20

// get fetches u and returns its body, turning an error status into an
// error that quotes the backend's own message.
func get(ctx context.Context, client *http.Client, u string, header http.Header) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxAnswer {
		return nil, fmt.Errorf("answer over %d bytes", maxAnswer)
	}
	if resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(body))
		if len(msg) > 200 {
			msg = msg[:200]
		}
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, msg)
	}
	return body, nil
}
