package server

import (
	"errors"
	"fmt"
	"testing"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/fetch"
)

// TestOneMapper: search's and batch's failures go through the same mapper
// as the chain's, with the statuses, messages and Retry-After they had.
func TestOneMapper(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err        error
		status     int
		message    string
		retryAfter int
	}{
		{search.ErrNotConfigured, 501, search.ErrNotConfigured.Error(), 0},
		{fmt.Errorf("%w: searxng: 502", search.ErrNoBackend), 502, "upstream: no search backend answered: searxng: 502", 0},
		{httpapi.BatchError(fmt.Errorf("%w: 40, at most 32 per job", batch.ErrTooManyTargets)), 422, "invalid: too many targets: 40, at most 32 per job", 0},
		{httpapi.BatchError(batch.ErrNoTargets), 400, "invalid: a batch needs at least one target", 0},
		{httpapi.BatchError(batch.ErrNotFound), 404, "not_found: no such batch job", 0},
		{httpapi.BatchError(batch.ErrFinished), 409, "conflict: the batch job has already finished", 0},
		{httpapi.BatchError(batch.ErrCallerBusy), 429, "busy: the caller already has a live batch job", 30},
		{httpapi.BatchError(errors.New("pq: password authentication failed for user sift")), 503, "unavailable: storage unavailable", 5},
		{&stages.Error{Stage: "extract", Err: stages.ErrBusy}, 429, "busy: busy", 1},
	}
	for _, tc := range tests {
		ae := toAPIError(tc.err)
		if ae.Status != tc.status || ae.Message != tc.message || ae.RetryAfter != tc.retryAfter {
			t.Errorf("%v: got %d %q Retry-After %d, want %d %q %d", tc.err, ae.Status, ae.Message, ae.RetryAfter, tc.status, tc.message, tc.retryAfter)
		}
	}
}

// TestTargetOutcome: a failed batch target is counted under its class's
// label; too_large is too_large (it was too_long), a deadline timeout.
func TestTargetOutcome(t *testing.T) {
	t.Parallel()
	stageErr := func(err error) error { return &stages.Error{Stage: "fetch", Err: err} }
	tests := []struct {
		err  error
		want string
	}{
		{stageErr(fmt.Errorf("%w: body over the cap", fetch.ErrTooLarge)), "too_large"},
		{stageErr(guard.Refuse("private address 10.0.0.5")), "blocked"},
		{stageErr(fmt.Errorf("%w: slow headers", fetch.ErrTimeout)), "timeout"},
		{stageErr(fmt.Errorf("%w: more than 5", fetch.ErrRedirects)), "upstream_4xx"},
		{stageErr(fmt.Errorf("%w: EOF", fetch.ErrUpstream)), "upstream_5xx"},
		{stageErr(&sdk.DocError{Class: "encrypted", Message: "a password"}), "upstream_4xx"},
		{stageErr(&sdk.DocError{Class: sdk.ClassUnsupported, Message: "scan"}), "unsupported"},
	}
	for _, tc := range tests {
		if got := service.TargetOutcome(toAPIError(tc.err)); got != tc.want {
			t.Errorf("%v: outcome %q, want %q", tc.err, got, tc.want)
		}
	}
}
