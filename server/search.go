package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/digest"
	"github.com/siftd/sift/tokens"
)

// POST /v2/search, Firecrawl's shape: data.web[] of url, title,
// description, position. Scrape fields appear only when scrapeOptions asks.
type firecrawlSearchRequest struct {
	Query         string          `json:"query"`
	Limit         int             `json:"limit"`
	ScrapeOptions json.RawMessage `json:"scrapeOptions"`
}

// firecrawlSearchLimit is Firecrawl's default number of results.
const firecrawlSearchLimit = 5

type firecrawlWebResult struct {
	URL         string `json:"url"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Position    int    `json:"position"`
	// The scraped document, when scrapeOptions ask for it.
	Markdown *string         `json:"markdown,omitempty"`
	HTML     *string         `json:"html,omitempty"`
	RawHTML  *string         `json:"rawHtml,omitempty"`
	Summary  *string         `json:"summary,omitempty"`
	Links    *[]string       `json:"links,omitempty"`
	JSON     json.RawMessage `json:"json,omitempty"`
	Metadata *scrapeMetadata `json:"metadata,omitempty"`
}

// searchScrapeOptions decodes a search's scrapeOptions; nil when there are
// none.
func searchScrapeOptions(raw json.RawMessage) (*scrapeOptions, *apiError) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var opts scrapeOptions
	warnings, ae := decodeFirecrawl(raw, &opts, scrapeFields)
	if ae != nil {
		ae.Message = strings.Replace(ae.Message, "Bad Request: ", "Bad Request: scrapeOptions: ", 1)
		return nil, ae
	}
	opts.Warnings = warnings
	if ae := opts.check(); ae != nil {
		return nil, ae
	}
	if ae := opts.readJSONFormat(raw); ae != nil {
		return nil, ae
	}
	if len(opts.Formats) == 0 {
		opts.Formats = []scrapeFormat{"markdown"}
	}
	return &opts, nil
}

// scrapeResults scrapes each result through the guarded chain, one after
// the other within the request's deadline; a result that fails keeps its
// url, title and description, and its failure is a warning.
func (s *Server) scrapeResults(ctx context.Context, c *caller, opts *scrapeOptions, web []firecrawlWebResult) []string {
	var warnings []string
	for _, w := range opts.Warnings {
		warnings = append(warnings, "scrapeOptions: "+w)
	}
	each := *opts
	each.Warnings = nil // said once above, not per result
	for i := range web {
		doc, ae := s.scrapeTarget(ctx, c, &scrapeRequest{URL: web[i].URL, scrapeOptions: each})
		if ae != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %s", web[i].URL, ae.Message))
			continue
		}
		r := &web[i]
		r.Markdown, r.HTML, r.RawHTML, r.Summary, r.Links, r.Metadata = doc.Markdown, doc.HTML, doc.RawHTML, doc.Summary, doc.Links, &doc.Metadata
		r.JSON = doc.JSON
		if doc.Warning != "" {
			warnings = append(warnings, fmt.Sprintf("%s: %s", web[i].URL, doc.Warning))
		}
	}
	return warnings
}

func (s *Server) handleFirecrawlSearch(w http.ResponseWriter, r *http.Request, c *caller) {
	logOf(r.Context()).setMode("search")
	raw, ae := readBody(r)
	if ae != nil {
		writeFirecrawlError(w, ae)
		return
	}
	var req firecrawlSearchRequest
	fieldWarns, ae := decodeFirecrawl(raw, &req, searchFields)
	if ae != nil {
		writeFirecrawlError(w, ae)
		return
	}
	if req.Query == "" {
		writeFirecrawlError(w, firecrawlBadRequest("query is required"))
		return
	}
	scrape, ae := searchScrapeOptions(req.ScrapeOptions)
	if ae != nil {
		writeFirecrawlError(w, ae)
		return
	}
	if req.Limit <= 0 {
		req.Limit = firecrawlSearchLimit
	}
	req.Limit = min(req.Limit, 100)
	out, err := s.search.Search(r.Context(), req.Query, "", req.Limit, true)
	if err != nil {
		writeFirecrawlError(w, toAPIError(err))
		return
	}
	web := make([]firecrawlWebResult, 0, len(out.Results))
	for i, res := range out.Results {
		web = append(web, firecrawlWebResult{URL: res.URL, Title: res.Title, Description: res.Snippet, Position: i + 1})
	}
	body := map[string]any{"success": true, "data": map[string]any{"web": web}, "id": newID(), "creditsUsed": 1}
	warnings := append(append([]string{}, out.Warnings...), fieldWarns...)
	if scrape != nil {
		warnings = append(warnings, s.scrapeResults(r.Context(), c, scrape, web)...)
	}
	if len(warnings) > 0 {
		body["warning"] = strings.Join(warnings, "; ")
	}
	writeJSON(w, http.StatusOK, body)
}

// POST /v1/search, sift's own.
type searchRequest struct {
	Query    string `json:"query"`
	Question string `json:"question"`
	K        int    `json:"k"`
	Rerank   *bool  `json:"rerank"`
	Digest   bool   `json:"digest"`
}

type searchResult struct {
	URL     string   `json:"url"`
	Title   string   `json:"title"`
	Snippet string   `json:"snippet"`
	Chunks  []string `json:"chunks"`
	Score   float64  `json:"score"`
	Source  string   `json:"source"`
	Sources []string `json:"sources"`
}

func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request, c *caller) {
	logOf(r.Context()).setMode("search")
	var req searchRequest
	if ae := readJSON(r, &req); ae != nil {
		writeError(w, ae)
		return
	}
	if req.Query == "" {
		writeError(w, badRequest("query is required"))
		return
	}
	if req.K <= 0 {
		req.K = 8
	}
	rerank := req.Rerank == nil || *req.Rerank
	out, err := s.search.Search(r.Context(), req.Query, req.Question, min(req.K, 50), rerank)
	if err != nil {
		writeError(w, toAPIError(err))
		return
	}
	results := make([]searchResult, 0, len(out.Results))
	returned := 0
	for _, res := range out.Results {
		chunks := res.Chunks
		if chunks == nil {
			chunks = []string{}
		}
		results = append(results, searchResult{URL: res.URL, Title: res.Title, Snippet: res.Snippet, Chunks: chunks,
			Score: res.Score, Source: res.Sources[0], Sources: res.Sources})
		returned += tokens.Count(res.Title + res.Snippet)
	}
	warnings := append([]string{}, out.Warnings...)
	var digested string
	if req.Digest {
		joined, ws := s.readTop(r, c, out.Results, digestPages)
		warnings = append(warnings, ws...)
		digested, ws = s.digestResults(r.Context(), req, joined)
		warnings = append(warnings, ws...)
		returned += tokens.Count(digested)
	}
	answers := out.Answers
	if answers == nil {
		answers = []string{}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"results": results, "answers": answers, "digest": digested, "untrusted": true, "warnings": warnings,
		"sizes": map[string]int{"returned_tokens": returned},
	})
}

// Reading the top results for a search digest.
const (
	digestPages   = 3
	digestPageCap = 6000 // bytes of clean text per page
)

// digestResults condenses the joined text of the top results around the
// question (the query when there is none). Like a fetch's digest, it never
// fails the search: the joined text, cut, stands in with a warning.
func (s *Server) digestResults(ctx context.Context, req searchRequest, joined string) (string, []string) {
	if joined == "" {
		return "", nil
	}
	if s.digester == nil {
		return joined, []string{"digest not configured; the clean text of the top results is returned as the digest"}
	}
	question := req.Question
	if question == "" {
		question = req.Query
	}
	res, err := s.digester.Digest(ctx, &sdk.DigestRequest{Content: joined, Question: question, Title: "Top results for: " + req.Query})
	if err != nil {
		return digest.Fallback(ctx, joined, question), []string{digest.FallbackWarning(err)}
	}
	return res.Digest, res.Warnings
}

// readTop fetches the top results through the normal guarded chain and
// joins their clean text, page by page; pages that fail are skipped with a
// warning.
func (s *Server) readTop(r *http.Request, c *caller, results []search.Result, n int) (string, []string) {
	var parts, warnings []string
	for _, res := range results[:min(n, len(results))] {
		got, ae := s.run(r.Context(), c, stages.Request{URL: res.URL, Mode: modeClean})
		if ae != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %s", res.URL, ae.Message))
			continue
		}
		if got.doc.Extraction == nil {
			continue
		}
		text, _ := sdk.Truncate(got.doc.Extraction.Content, digestPageCap)
		parts = append(parts, fmt.Sprintf("## %s\n%s\n\n%s", res.Title, res.URL, text))
	}
	return strings.Join(parts, "\n\n"), warnings
}
