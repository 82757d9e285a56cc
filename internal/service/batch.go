package service

import (
	"encoding/json"
	"fmt"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/config"
	"github.com/siftd/sift/errclass"
)

// StoredTarget is what a stored batch target carries: the request of the
// API it was submitted through, under that API's name. Fetch is a
// /v1/fetch request; Scrape is a Firecrawl scrape, which only the
// firecrawl package reads.
type StoredTarget struct {
	Fetch  *FetchRequest   `json:"fetch,omitempty"`
	Scrape json.RawMessage `json:"scrape,omitempty"`
}

// BatchWorker is the caller who submitted a batch target, as its batch
// work (Batch set: plugin pools give it their batch share), while that
// caller is still configured with the same key; else the target fails.
func (s *Service) BatchWorker(bc batch.Caller) (*Caller, error) {
	c := s.callerNamed(bc.Name)
	if c == nil || batch.KeyID(c.Hash) != bc.Key {
		return nil, &batch.TargetError{Message: "invalid: the caller is no longer configured", Outcome: errclass.OutcomeOther}
	}
	work := *c
	work.Batch = true
	return &work, nil
}

// BatchResult is a batch target's answer as the runner stores it: the
// answer as JSON, or its failure. A failure whose class errclass's table
// marks Requeue (busy, unavailable, cancelled) is retried later; any other
// is the target's.
func BatchResult(answer any, ae *Error) ([]byte, error) {
	if ae != nil {
		if RowOf(ae.Class).Requeue {
			return nil, fmt.Errorf("%s: %w", ae.Message, batch.ErrRetryLater)
		}
		return nil, &batch.TargetError{Message: ae.Message, Hint: ae.Hint, Outcome: TargetOutcome(ae)}
	}
	return json.Marshal(answer)
}

// TargetOutcome is the metrics label of a failed target.
func TargetOutcome(ae *Error) string { return RowOf(ae.Class).Outcome }

// callerNamed is the configured caller called name, or nil.
func (s *Service) callerNamed(name string) *Caller {
	for i := range s.callers {
		if s.callers[i].Name == name {
			return &s.callers[i]
		}
	}
	return nil
}

// BatchCallers are the configured callers as the batch runner knows them
// (batch.Options.Callers): name, key identity and class.
func BatchCallers(cfg []config.Caller) []batch.Caller {
	cs := Callers(cfg)
	out := make([]batch.Caller, len(cs))
	for i := range cs {
		out[i] = BatchCaller(&cs[i])
	}
	return out
}

// BatchCaller is c as the batch runner knows it.
func BatchCaller(c *Caller) batch.Caller {
	class := "open"
	if c.Restricted {
		class = "restricted"
	}
	return batch.Caller{Name: c.Name, Key: batch.KeyID(c.Hash), Class: class}
}
