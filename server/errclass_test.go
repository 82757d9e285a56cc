package server

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/search"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/fetch"
)

// TestOneMapper: search's and batch's failures go through the same mapper
// as the chain's, with the statuses, messages and Retry-After they had.
func TestOneMapper(t *testing.T) {
	tests := []struct {
		err        error
		status     int
		message    string
		retryAfter int
	}{
		{search.ErrNotConfigured, 501, search.ErrNotConfigured.Error(), 0},
		{fmt.Errorf("%w: searxng: 502", search.ErrNoBackend), 502, "upstream: no search backend answered: searxng: 502", 0},
		{batchErr(fmt.Errorf("%w: 40, at most 32 per job", batch.ErrTooManyTargets)), 422, "invalid: too many targets: 40, at most 32 per job", 0},
		{batchErr(batch.ErrNoTargets), 400, "invalid: a batch needs at least one target", 0},
		{batchErr(batch.ErrNotFound), 404, "not_found: no such batch job", 0},
		{batchErr(batch.ErrFinished), 409, "conflict: the batch job has already finished", 0},
		{batchErr(batch.ErrCallerBusy), 429, "busy: the caller already has a live batch job", 30},
		{batchErr(errors.New("pq: password authentication failed for user sift")), 500, "internal: storage unavailable", 0},
		{&stages.Error{Stage: "cache", Err: &stages.StorageError{Err: errors.New("dial tcp 10.1.2.3:5432")}}, 503, "unavailable: storage unavailable", 0},
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

// TestFirecrawlEnvelope: the Firecrawl envelope's status and code are the
// table's for every class.
func TestFirecrawlEnvelope(t *testing.T) {
	for _, r := range errclass.Rows() {
		if r.Status == 0 {
			continue
		}
		rec := httptest.NewRecorder()
		writeFirecrawlError(rec, classError(r.Class, "x"))
		body := rec.Body.String()
		if rec.Code != r.FirecrawlStatus || (r.FirecrawlCode != "") != strings.Contains(body, `"code":"`+r.FirecrawlCode+`"`) {
			t.Errorf("%s: %d %s, want %d code %q", r.Class, rec.Code, body, r.FirecrawlStatus, r.FirecrawlCode)
		}
		if (r.RetryAfter > 0) != (rec.Header().Get("Retry-After") != "") {
			t.Errorf("%s: Retry-After %q", r.Class, rec.Header().Get("Retry-After"))
		}
	}
	rec := httptest.NewRecorder()
	writeFirecrawlError(rec, withCode(firecrawlBadRequest("malformed JSON"), errclass.CodeInvalidJSON))
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), `"code":"BAD_REQUEST_INVALID_JSON"`) {
		t.Errorf("a refined code: %d %s", rec.Code, rec.Body.String())
	}
	// A refinement the table does not list for the class is not sent:
	// the envelope is the class's.
	rec = httptest.NewRecorder()
	wrong := withCode(classError(errclass.Timeout, "x"), errclass.CodeInvalidJSON)
	wrong.FirecrawlStatus = http.StatusRequestEntityTooLarge
	writeFirecrawlError(rec, wrong)
	if rec.Code != 408 || !strings.Contains(rec.Body.String(), `"code":"SCRAPE_TIMEOUT"`) {
		t.Errorf("a refinement outside the table: %d %s", rec.Code, rec.Body.String())
	}
	rec = httptest.NewRecorder()
	writeFirecrawlError(rec, bodyTooLarge(10, 20))
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), `"code":"TOO_LARGE"`) {
		t.Errorf("a request body over its cap: %d %s", rec.Code, rec.Body.String())
	}
}
