package service

import (
	"context"
	"fmt"
	"strings"

	"github.com/siftd/sift/internal/apiv1"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/digest"
	"github.com/siftd/sift/tokens"
)

// The /v1/search shapes are apiv1's.
type (
	SearchRequest = apiv1.SearchRequest
	SearchResult  = apiv1.SearchResult
	SearchAnswer  = apiv1.SearchAnswer
)

// Search answers a /v1/search request: the backends' merged results and,
// when asked, a digest of the top results read through the chain as the
// caller.
func (s *Service) Search(ctx context.Context, c *Caller, req *SearchRequest) (*SearchAnswer, *Error) {
	rerank := req.Rerank == nil || *req.Rerank
	out, err := s.search.Search(ctx, req.Query, req.Question, min(req.K, 50), rerank)
	if err != nil {
		return nil, ErrorOf(err)
	}
	results := make([]SearchResult, 0, len(out.Results))
	returned := 0
	for _, res := range out.Results {
		chunks := res.Chunks
		if chunks == nil {
			chunks = []string{}
		}
		results = append(results, SearchResult{URL: res.URL, Title: res.Title, Snippet: res.Snippet, Chunks: chunks,
			Score: res.Score, Source: res.Sources[0], Sources: res.Sources})
		returned += tokens.Count(res.Title + res.Snippet)
	}
	warnings := append([]string{}, out.Warnings...)
	var digested string
	if req.Digest {
		joined, ws := s.readTop(ctx, c, out.Results, digestPages)
		warnings = append(warnings, ws...)
		digested, ws = s.digestResults(ctx, req, joined)
		warnings = append(warnings, ws...)
		returned += tokens.Count(digested)
	}
	answers := out.Answers
	if answers == nil {
		answers = []string{}
	}
	return &SearchAnswer{Results: results, Answers: answers, Digest: digested, Untrusted: true, Warnings: warnings,
		Sizes: apiv1.SearchSizes{ReturnedTokens: returned}}, nil
}

// Reading the top results for a search digest.
const (
	digestPages   = 3
	digestPageCap = 6000 // bytes of clean text per page
)

// digestResults condenses the joined text of the top results around the
// question (the query when there is none). Like a fetch's digest, it never
// fails the search: the joined text, cut, stands in with a warning.
func (s *Service) digestResults(ctx context.Context, req *SearchRequest, joined string) (string, []string) {
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
func (s *Service) readTop(ctx context.Context, c *Caller, results []search.Result, n int) (string, []string) {
	var parts, warnings []string
	for _, res := range results[:min(n, len(results))] {
		got, ae := s.Run(ctx, c, stages.Request{URL: res.URL, Mode: ModeClean})
		if ae != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %s", res.URL, ae.Message))
			continue
		}
		if got.Doc.Extraction == nil {
			continue
		}
		text, _ := sdk.Truncate(got.Doc.Extraction.Content, digestPageCap)
		parts = append(parts, fmt.Sprintf("## %s\n%s\n\n%s", res.Title, res.URL, text))
	}
	return strings.Join(parts, "\n\n"), warnings
}

// SearchWeb runs the search backends for a client that knows nothing of
// reranking (a Firecrawl search): the results are reranked when an
// embedder is configured, and no warning says so when none is.
func (s *Service) SearchWeb(ctx context.Context, query string, limit int) (*search.Outcome, error) {
	return s.search.Search(ctx, query, "", limit, s.search.Embedder() != nil)
}
