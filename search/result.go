// Package search queries web search backends (SearXNG, Brave's LLM Context
// API) for agents, merges and deduplicates their results. Every backend
// request goes out through the guard: a backend on an internal address is
// reachable only when the operator allows it explicitly.
package search

import "context"

// Result is one search hit.
type Result struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	// Snippet is the best plain-text description of the hit.
	Snippet string `json:"snippet"`
	// Chunks are further text passages a backend returned for the hit
	// (Brave's grounding snippets, which may be JSON-serialised tables).
	Chunks []string `json:"chunks,omitempty"`
	// Sources names every backend that returned the hit.
	Sources []string `json:"sources"`
	// Score is the rerank similarity, when reranked.
	Score float64 `json:"score,omitempty"`
}

// Found is what one backend returned.
type Found struct {
	Results []Result
	// Answers are direct answers and infobox texts that name no page.
	Answers []string
	// Warnings say what the backend could not do (engines that timed out).
	Warnings []string
}

// Backend is one search service.
type Backend interface {
	// Name is the backend's source label ("searxng", "brave_llm").
	Name() string
	// Search returns up to limit results in the backend's order.
	Search(ctx context.Context, query string, limit int) (*Found, error)
}
