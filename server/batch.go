package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/store"
)

// MaxBatchBody bounds the body of a batch submission: 32 targets with
// their questions and options (a constant, not config: the body cap
// protects the server before any configuration is read).
const MaxBatchBody = 256 << 10

// MaxWait bounds a long-poll (`?wait=`) on a batch job.
const MaxWait = 30 * time.Second

// busyRetryAfter is the Retry-After of a batch refused for its caps: jobs
// take minutes, so asking again in a second would only spin.
const busyRetryAfter = "30"

// BatchOptions turn on the batch API: the store it keeps jobs in and its
// limits. Disabled answers every batch route 503.
type BatchOptions struct {
	Store    *store.Store
	Limits   batch.Limits
	Disabled bool
	// Runner tunes the runner (timings, hooks); tests shorten its pauses.
	Runner batch.Options
	// PageBytes bounds the results one read returns (MaxPageBytes when
	// 0); tests shrink it.
	PageBytes int
}

// MaxPageBytes bounds the stored results one batch read returns: a read
// with more to give answers a page and a `next`.
const MaxPageBytes = 8 << 20

// batchOptions is what a stored target carries: the request of the API
// it came through.
type batchOptions struct {
	Fetch  *fetchRequest  `json:"fetch,omitempty"`
	Scrape *scrapeRequest `json:"scrape,omitempty"`
}

// batchFetch is the runner's FetchFunc: one target through the same
// pipeline as /v1/fetch or /v2/scrape, as the caller who submitted it.
func (s *Server) batchFetch(ctx context.Context, bc batch.Caller, t batch.Target) ([]byte, error) {
	ctx = context.WithValue(ctx, batchTargetKey{}, true)
	c := s.callerNamed(bc.Name)
	if c == nil || batch.KeyID(c.hash) != bc.Key {
		return nil, &batch.TargetError{Message: "invalid: the caller is no longer configured", Outcome: "other"}
	}
	var opts batchOptions
	if err := json.Unmarshal(t.Options, &opts); err != nil {
		return nil, &batch.TargetError{Message: "internal: unreadable target options", Outcome: "other"}
	}
	var answer any
	var ae *apiError
	switch {
	case opts.Scrape != nil:
		answer, ae = s.scrapeTarget(ctx, c, opts.Scrape)
	case opts.Fetch != nil:
		answer, ae = s.fetchTarget(ctx, c, opts.Fetch)
	default:
		return nil, &batch.TargetError{Message: "internal: target without a request", Outcome: "other"}
	}
	if ae != nil {
		if ae.Status == http.StatusTooManyRequests || ae.Status == http.StatusServiceUnavailable {
			return nil, fmt.Errorf("%s: %w", ae.Message, batch.ErrRetryLater)
		}
		return nil, &batch.TargetError{Message: ae.Message, Hint: ae.Hint, Outcome: targetOutcome(ae)}
	}
	return json.Marshal(answer)
}

// batchTargetKey marks a context as a batch target's.
type batchTargetKey struct{}

func fromBatch(ctx context.Context) bool {
	v, _ := ctx.Value(batchTargetKey{}).(bool)
	return v
}

// targetOutcome is the metrics class of a failed target.
func targetOutcome(ae *apiError) string {
	switch ae.Class {
	case "blocked", "timeout", "busy", "unsupported":
		return ae.Class
	case "too_large":
		return "too_long"
	}
	if ae.Status >= 500 {
		return "upstream_5xx"
	}
	return "upstream_4xx"
}

func (s *Server) callerNamed(name string) *caller {
	for i := range s.callers {
		if s.callers[i].name == name {
			return &s.callers[i]
		}
	}
	return nil
}

func batchCaller(c *caller) batch.Caller {
	class := "open"
	if c.restricted {
		class = "restricted"
	}
	return batch.Caller{Name: c.name, Key: batch.KeyID(c.hash), Class: class}
}

// batchRoute wraps a batch handler: 503 while batch is disabled.
func (s *Server) batchRoute(h authedHandler) http.HandlerFunc {
	return s.authedWithin(MaxBatchBody, func(w http.ResponseWriter, r *http.Request, c *caller) {
		if s.batch == nil {
			writeError(w, &apiError{Status: http.StatusServiceUnavailable, Class: "unavailable", Message: "batch disabled"})
			return
		}
		h(w, r, c)
	})
}

type batchSubmit struct {
	Targets []fetchRequest `json:"targets"`
}

func (s *Server) handleBatchSubmit(w http.ResponseWriter, r *http.Request, c *caller) {
	var req batchSubmit
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, &apiError{Status: http.StatusRequestEntityTooLarge, Class: "too_large",
				Message: fmt.Sprintf("too_large: a batch body is at most %d bytes", MaxBatchBody)})
			return
		}
		writeError(w, badRequest("malformed JSON body: "+err.Error()))
		return
	}
	targets, ae := s.batchTargets(req.Targets)
	if ae != nil {
		writeError(w, ae)
		return
	}
	job, reused, err := s.batch.Submit(r.Context(), batchCaller(c), targets)
	if err != nil {
		writeBatchError(w, err)
		return
	}
	status := job.Status
	if !reused {
		status = store.JobQueued
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"success": true, "job_id": job.ID, "status": status,
		"targets": job.TargetsTotal, "reused": reused})
}

// batchTargets checks every target as /v1/fetch would and runs the guard's
// pre-check (no resolution) on its URL, naming the first that fails.
func (s *Server) batchTargets(reqs []fetchRequest) ([]batch.Target, *apiError) {
	limit := s.batch.Limits().TargetsPerJob
	switch {
	case len(reqs) == 0:
		return nil, badRequest("targets: " + batch.ErrNoTargets.Error())
	case len(reqs) > limit:
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Class: "invalid",
			Message: fmt.Sprintf("invalid: %d targets, at most %d per job", len(reqs), limit)}
	}
	out := make([]batch.Target, len(reqs))
	for i := range reqs {
		req := &reqs[i]
		if ae := req.validate(); ae != nil {
			ae.Message = fmt.Sprintf("invalid: targets[%d]: %s", i, trimClass(ae.Message, "invalid"))
			return nil, ae
		}
		if ae := s.preCheck(req.URL); ae != nil {
			ae.Message = fmt.Sprintf("blocked: targets[%d]: %s", i, trimClass(ae.Message, "blocked"))
			return nil, ae
		}
		opts, err := json.Marshal(batchOptions{Fetch: req})
		if err != nil {
			return nil, &apiError{Status: http.StatusInternalServerError, Class: "internal", Message: "internal: " + err.Error()}
		}
		out[i] = batch.Target{URL: req.URL, Options: opts}
	}
	return out, nil
}

// preCheck refuses at submit what the guard would refuse without resolving
// the name: a private address literal, a port or scheme not allowed.
func (s *Server) preCheck(rawURL string) *apiError {
	if s.precheck == nil {
		return nil
	}
	if err := s.precheck(rawURL); err != nil {
		ae := toAPIError(err)
		ae.Status = http.StatusUnprocessableEntity
		return ae
	}
	return nil
}

func trimClass(msg, class string) string {
	if len(msg) > len(class)+2 && msg[:len(class)+2] == class+": " {
		return msg[len(class)+2:]
	}
	return msg
}

// writeBatchError maps the runner's typed errors to statuses.
func writeBatchError(w http.ResponseWriter, err error) {
	if errors.Is(err, batch.ErrCallerBusy) || errors.Is(err, batch.ErrBusy) {
		w.Header().Set("Retry-After", busyRetryAfter)
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"success": false, "error": err.Error(), "hint": "retry_after"})
		return
	}
	writeError(w, batchAPIError(err))
}

// batchAPIError is the answer to one of the runner's typed errors.
func batchAPIError(err error) *apiError {
	switch {
	case errors.Is(err, batch.ErrTooManyTargets):
		return &apiError{Status: http.StatusUnprocessableEntity, Class: "invalid", Message: "invalid: " + err.Error()}
	case errors.Is(err, batch.ErrNoTargets), errors.Is(err, batch.ErrBadID):
		return badRequest(err.Error())
	case errors.Is(err, batch.ErrNotFound):
		return &apiError{Status: http.StatusNotFound, Class: "not_found", Message: "not_found: no such batch job"}
	case errors.Is(err, batch.ErrFinished):
		return &apiError{Status: http.StatusConflict, Class: "conflict", Message: "conflict: the batch job has already finished"}
	}
	return &apiError{Status: http.StatusInternalServerError, Class: "internal", Message: "internal: storage unavailable"}
}

type batchTargetView struct {
	Idx    int             `json:"idx"`
	URL    string          `json:"url"`
	Status string          `json:"status"`
	Error  string          `json:"error,omitempty"`
	Hint   string          `json:"hint,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
}

type batchJobView struct {
	JobID        string            `json:"job_id"`
	Status       string            `json:"status"`
	Error        string            `json:"error,omitempty"`
	TargetsTotal int               `json:"targets_total"`
	TargetsDone  int               `json:"targets_done"`
	CreatedAt    time.Time         `json:"created_at"`
	ExpiresAt    time.Time         `json:"expires_at"`
	Targets      []batchTargetView `json:"targets"`
	// Next reads the page after this one, while results remain.
	Next string `json:"next,omitempty"`
}

func (s *Server) handleBatchStatus(w http.ResponseWriter, r *http.Request, c *caller) {
	id := mux.Vars(r)["id"]
	q := r.URL.Query()
	withResults := q.Get("results") == "1"
	from, ae := nonNegative(q, "from")
	if ae == nil {
		var wait time.Duration
		if wait, ae = parseWait(q.Get("wait")); ae == nil {
			ae = s.awaitJob(r.Context(), c, id, wait)
		}
	}
	if ae != nil {
		writeError(w, ae)
		return
	}
	if !withResults {
		job, targets, err := s.batch.Summary(r.Context(), batchCaller(c), id, "")
		if err != nil {
			writeBatchError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, s.jobView(job, targets))
		return
	}
	job, page, more, err := s.batch.Results(r.Context(), batchCaller(c), id,
		store.PageQuery{From: from, MaxBytes: int64(s.pageBytes)})
	if err != nil {
		writeBatchError(w, err)
		return
	}
	v := s.jobView(job, page)
	if more {
		v.Next = fmt.Sprintf("/v1/batch/%s?results=1&from=%d", id, page[len(page)-1].Idx+1)
	}
	writeJSON(w, http.StatusOK, v)
}

// awaitJob holds a status read until the job changes or wait passes.
func (s *Server) awaitJob(ctx context.Context, c *caller, id string, wait time.Duration) *apiError {
	if err := s.batch.Await(ctx, batchCaller(c), id, wait); err != nil {
		return batchAPIError(err)
	}
	return nil
}

// nonNegative reads the query parameter name as a non-negative integer
// (0 when absent).
func nonNegative(q url.Values, name string) (int, *apiError) {
	v := q.Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, badRequest(fmt.Sprintf("%s %q is not a non-negative integer", name, v))
	}
	return n, nil
}

func (s *Server) jobView(job *store.BatchJob, targets []store.BatchTarget) batchJobView {
	v := batchJobView{JobID: job.ID, Status: job.Status, Error: job.Error, TargetsTotal: job.TargetsTotal,
		TargetsDone: job.TargetsDone, CreatedAt: job.CreatedAt.UTC(), ExpiresAt: job.Lease.Add(s.batch.Limits().TTL).UTC(),
		Targets: make([]batchTargetView, 0, len(targets))}
	for _, t := range targets {
		v.Targets = append(v.Targets, targetView(&t))
	}
	return v
}

func targetView(t *store.BatchTarget) batchTargetView {
	return batchTargetView{Idx: t.Idx, URL: t.URL, Status: t.Status, Error: t.Error, Hint: t.Hint, Result: t.Result}
}

// parseWait reads `?wait=`: a Go duration ("25s") or seconds ("25"), at
// most MaxWait.
func parseWait(raw string) (time.Duration, *apiError) {
	if raw == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(raw)
	if err != nil {
		secs, serr := strconv.Atoi(raw)
		if serr != nil {
			return 0, badRequest(fmt.Sprintf("wait %q: want a duration such as 25s", raw))
		}
		d = time.Duration(secs) * time.Second
	}
	if d < 0 || d > MaxWait {
		return 0, badRequest(fmt.Sprintf("wait %q: at most %s", raw, MaxWait))
	}
	return d, nil
}

func (s *Server) handleBatchTarget(w http.ResponseWriter, r *http.Request, c *caller) {
	vars := mux.Vars(r)
	idx, err := strconv.Atoi(vars["idx"])
	if err != nil || idx < 0 {
		writeBatchError(w, batch.ErrNotFound)
		return
	}
	t, err := s.batch.Target(r.Context(), batchCaller(c), vars["id"], idx)
	if err != nil {
		writeBatchError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		JobID string `json:"job_id"`
		batchTargetView
	}{vars["id"], targetView(t)})
}

func (s *Server) handleBatchCancel(w http.ResponseWriter, r *http.Request, c *caller) {
	if err := s.batch.Cancel(r.Context(), batchCaller(c), mux.Vars(r)["id"]); err != nil {
		writeBatchError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "status": store.JobCancelled})
}
