package search

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/invisible"
)

// ErrNoBackend means no backend answered: none is configured, or every one
// failed.
var ErrNoBackend = errclass.New(errclass.Upstream, "no search backend answered")

// Searcher runs the configured backends concurrently under one deadline and
// merges what they return; one answering is enough.
type Searcher struct {
	Backends []Backend
	Deadline time.Duration
}

// Outcome is a merged search with what went wrong on the way.
type Outcome struct {
	Results  []Result
	Answers  []string
	Warnings []string
}

// Search queries every backend for query and merges up to limit results.
func (s *Searcher) Search(ctx context.Context, query string, limit int) (*Outcome, error) {
	if len(s.Backends) == 0 {
		return nil, fmt.Errorf("%w: none is configured", ErrNoBackend)
	}
	ctx, cancel := context.WithTimeout(ctx, s.Deadline)
	defer cancel()
	found := make([]*Found, len(s.Backends))
	errs := make([]error, len(s.Backends))
	var wg sync.WaitGroup
	for i, b := range s.Backends {
		wg.Go(func() { found[i], errs[i] = b.Search(ctx, query, limit) })
	}
	wg.Wait()
	out := &Outcome{}
	var lists [][]Result
	answered := 0
	for i, err := range errs {
		if err != nil {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%s failed: %v", s.Backends[i].Name(), err))
			continue
		}
		answered++
		lists = append(lists, found[i].Results)
		out.Answers = append(out.Answers, found[i].Answers...)
		out.Warnings = append(out.Warnings, found[i].Warnings...)
	}
	if answered == 0 {
		return nil, fmt.Errorf("%w: %v", ErrNoBackend, errors.Join(errs...))
	}
	out.Results = Merge(limit, lists...)
	stripInvisible(out)
	return out, nil
}

// stripInvisible cleans the results' text and the answers of invisible and
// control characters, and warns when it removed any: search results reach
// the agent as they come from the backends.
func stripInvisible(out *Outcome) {
	var c invisible.Counter
	for i := range out.Results {
		r := &out.Results[i]
		r.Title, r.Snippet = c.Strip(r.Title), c.Strip(r.Snippet)
		if r.Chunks != nil {
			chunks := make([]string, len(r.Chunks))
			for j, ch := range r.Chunks {
				chunks[j] = c.Strip(ch)
			}
			r.Chunks = chunks
		}
	}
	for i, a := range out.Answers {
		out.Answers[i] = c.Strip(a)
	}
	if w := c.Warning(); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
}
