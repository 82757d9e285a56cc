// Package batchtarget runs a stored batch target through the API it was
// submitted to: a /v1/batch target as /v1/fetch, a /v2/batch/scrape
// target as /v2/scrape, both over the service, as the caller who
// submitted it. It is the batch runner's fetch function; requests run one
// way, from here down, never back up into the HTTP layer.
package batchtarget

import (
	"context"
	"encoding/json"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/firecrawl"
	"github.com/siftd/sift/internal/service"
)

// Runner answers stored targets.
type Runner struct {
	svc       *service.Service
	firecrawl *firecrawl.API
}

// New returns a Runner over svc, running Firecrawl targets through fc.
func New(svc *service.Service, fc *firecrawl.API) *Runner {
	return &Runner{svc: svc, firecrawl: fc}
}

// Fetch is the batch runner's FetchFunc (batch.FetchFunc): one target
// through the same pipeline as its API's own route.
func (r *Runner) Fetch(ctx context.Context, bc batch.Caller, t batch.Target) ([]byte, error) {
	c, err := r.svc.BatchWorker(bc)
	if err != nil {
		return nil, err
	}
	var stored service.StoredTarget
	if err := json.Unmarshal(t.Options, &stored); err != nil {
		return nil, unrunnable("unreadable target options")
	}
	switch {
	case stored.Scrape != nil:
		return service.BatchResult(r.firecrawl.ScrapeStored(ctx, c, stored.Scrape))
	case stored.Fetch != nil:
		return service.BatchResult(r.svc.Fetch(ctx, c, stored.Fetch))
	}
	return nil, unrunnable("target without a request")
}

// unrunnable is a target that cannot run at all: sift's own fault, never
// retried.
func unrunnable(why string) error {
	return &batch.TargetError{Message: "internal: " + why, Outcome: errclass.OutcomeOther}
}
