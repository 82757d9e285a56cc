package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/config"
	"github.com/siftd/sift/errclass"
)

// TargetFunc answers one batch target as the API it was submitted
// through: options are that API's stored request, and the answer is what
// the API would have answered. Its error is an *Error, or a
// *batch.TargetError for a target it cannot run at all.
type TargetFunc func(ctx context.Context, c *Caller, options json.RawMessage) (answer any, err error)

// BatchFetch is the batch runner's fetch function: one target through
// answer, marked as a batch target's, as the caller who submitted it while
// that caller is still configured with the same key. A failure whose
// class errclass's table marks Requeue (busy, unavailable, cancelled) is
// retried later; any other failure is the target's.
func (s *Service) BatchFetch(ctx context.Context, bc batch.Caller, t batch.Target, answer TargetFunc) ([]byte, error) {
	c := s.callerNamed(bc.Name)
	if c == nil || batch.KeyID(c.Hash) != bc.Key {
		return nil, &batch.TargetError{Message: "invalid: the caller is no longer configured", Outcome: errclass.OutcomeOther}
	}
	batchWork := *c
	batchWork.Batch = true
	out, err := answer(ctx, &batchWork, t.Options)
	var te *batch.TargetError
	if errors.As(err, &te) {
		return nil, te
	}
	if err != nil {
		ae := ErrorOf(err)
		if RowOf(ae.Class).Requeue {
			return nil, fmt.Errorf("%s: %w", ae.Message, batch.ErrRetryLater)
		}
		return nil, &batch.TargetError{Message: ae.Message, Hint: ae.Hint, Outcome: TargetOutcome(ae)}
	}
	return json.Marshal(out)
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
