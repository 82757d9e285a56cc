package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/store"
)

// MaxBatchBody bounds the body of a batch submission: 32 targets with
// their questions and options (a constant, not config: the body cap
// protects the server before any configuration is read).
const MaxBatchBody = 256 << 10

// MaxWait bounds a long-poll (`?wait=`) on a batch job.
const MaxWait = 30 * time.Second

// MaxPageBytes bounds the stored results one batch read returns: a read
// with more to give answers a page and a `next`.
const MaxPageBytes = 8 << 20

// batchOptions is what a stored target carries: the request of the API
// it came through.
type batchOptions struct {
	Fetch  *service.FetchRequest `json:"fetch,omitempty"`
	Scrape *scrapeRequest        `json:"scrape,omitempty"`
}

// BatchFetch is the batch runner's FetchFunc: one target through the same
// pipeline as /v1/fetch or /v2/scrape, as the caller who submitted it.
func (s *Server) BatchFetch(ctx context.Context, bc batch.Caller, t batch.Target) ([]byte, error) {
	return s.svc.BatchFetch(ctx, bc, t, s.answerTarget)
}

// answerTarget answers a stored target's request as its API would.
func (s *Server) answerTarget(ctx context.Context, c *caller, raw json.RawMessage) (any, error) {
	var opts batchOptions
	if err := json.Unmarshal(raw, &opts); err != nil {
		return nil, &batch.TargetError{Message: "internal: unreadable target options", Outcome: errclass.OutcomeOther}
	}
	var answer any
	var ae *apiError
	switch {
	case opts.Scrape != nil:
		answer, ae = s.scrapeTarget(ctx, c, opts.Scrape)
	case opts.Fetch != nil:
		answer, ae = s.svc.Fetch(ctx, c, opts.Fetch)
	default:
		return nil, &batch.TargetError{Message: "internal: target without a request", Outcome: errclass.OutcomeOther}
	}
	if ae != nil {
		return nil, ae
	}
	return answer, nil
}

// batchRoute wraps a batch handler: 503 while batch is disabled.
func (s *Server) batchRoute(h authedHandler) http.HandlerFunc {
	return s.authedWithin(MaxBatchBody, func(w http.ResponseWriter, r *http.Request, c *caller) {
		if s.batch == nil {
			writeError(w, fromRow(errclass.Get(errclass.Unavailable), "batch disabled"))
			return
		}
		h(w, r, c)
	})
}

type batchSubmit struct {
	Targets []service.FetchRequest `json:"targets"`
}

func (s *Server) handleBatchSubmit(w http.ResponseWriter, r *http.Request, c *caller) {
	var req batchSubmit
	if ae := readJSON(r, &req); ae != nil {
		writeError(w, ae)
		return
	}
	targets, ae := s.batchTargets(req.Targets)
	if ae != nil {
		writeError(w, ae)
		return
	}
	job, reused, err := s.batch.Submit(r.Context(), service.BatchCaller(c), targets)
	if err != nil {
		writeError(w, toAPIError(batchErr(err)))
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
func (s *Server) batchTargets(reqs []service.FetchRequest) ([]batch.Target, *apiError) {
	limit := s.batch.Limits().TargetsPerJob
	switch {
	case len(reqs) == 0:
		return nil, badRequest("targets: " + batch.ErrNoTargets.Error())
	case len(reqs) > limit:
		return nil, badRequest(fmt.Sprintf("%d targets, at most %d per job", len(reqs), limit)).WithStatus(http.StatusUnprocessableEntity)
	}
	out := make([]batch.Target, len(reqs))
	for i := range reqs {
		req := &reqs[i]
		if ae := req.Validate(); ae != nil {
			ae.Message = fmt.Sprintf("invalid: targets[%d]: %s", i, trimClass(ae.Message, "invalid"))
			return nil, ae
		}
		if ae := s.preCheck(req.URL); ae != nil {
			ae.Message = fmt.Sprintf("blocked: targets[%d]: %s", i, trimClass(ae.Message, "blocked"))
			return nil, ae
		}
		opts, err := json.Marshal(batchOptions{Fetch: req})
		if err != nil {
			return nil, classError(errclass.Internal, err.Error())
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
		// The job is refused whole, with the target named: 422.
		return toAPIError(err).WithStatus(http.StatusUnprocessableEntity)
	}
	return nil
}

func trimClass(msg, class string) string {
	if len(msg) > len(class)+2 && msg[:len(class)+2] == class+": " {
		return msg[len(class)+2:]
	}
	return msg
}

// errStoreHidden stands for a batch store failure: the store's words
// (its database's address, user and name) are not the caller's to read.
var errStoreHidden = errclass.New(errclass.Internal, "storage unavailable")

// batchErr is one of the runner's errors as the caller may see it: any
// error that names no class is the store's, and is hidden.
func batchErr(err error) error {
	if _, known := errclass.Of(err); !known {
		return errStoreHidden
	}
	return err
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
		job, targets, err := s.batch.Summary(r.Context(), service.BatchCaller(c), id, "")
		if err != nil {
			writeError(w, toAPIError(batchErr(err)))
			return
		}
		writeJSON(w, http.StatusOK, s.jobView(job, targets))
		return
	}
	job, page, more, err := s.batch.Results(r.Context(), service.BatchCaller(c), id,
		store.PageQuery{From: from, MaxBytes: int64(s.pageBytes)})
	if err != nil {
		writeError(w, toAPIError(batchErr(err)))
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
	if err := s.batch.Await(ctx, service.BatchCaller(c), id, wait); err != nil {
		return toAPIError(batchErr(err))
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
	tooLong := badRequest(fmt.Sprintf("wait %q: at most %s", raw, MaxWait))
	d, err := time.ParseDuration(raw)
	if err != nil {
		secs, serr := strconv.ParseInt(raw, 10, 64)
		if serr != nil {
			return 0, badRequest(fmt.Sprintf("wait %q: want a duration such as 25s", raw))
		}
		var over bool
		if d, over = clientDuration(secs, time.Second, MaxWait); over || secs < 0 {
			return 0, tooLong
		}
	}
	if d < 0 || d > MaxWait {
		return 0, tooLong
	}
	return d, nil
}

func (s *Server) handleBatchTarget(w http.ResponseWriter, r *http.Request, c *caller) {
	vars := mux.Vars(r)
	idx, err := strconv.Atoi(vars["idx"])
	if err != nil || idx < 0 {
		writeError(w, toAPIError(batchErr(batch.ErrNotFound)))
		return
	}
	t, err := s.batch.Target(r.Context(), service.BatchCaller(c), vars["id"], idx)
	if err != nil {
		writeError(w, toAPIError(batchErr(err)))
		return
	}
	writeJSON(w, http.StatusOK, struct {
		JobID string `json:"job_id"`
		batchTargetView
	}{vars["id"], targetView(t)})
}

func (s *Server) handleBatchCancel(w http.ResponseWriter, r *http.Request, c *caller) {
	if err := s.batch.Cancel(r.Context(), service.BatchCaller(c), mux.Vars(r)["id"]); err != nil {
		writeError(w, toAPIError(batchErr(err)))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "status": store.JobCancelled})
}
