package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/apiv1"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/store"
)

// MaxWait bounds a long-poll (`?wait=`) on a batch job.
const MaxWait = 30 * time.Second

// batchRoute wraps a native batch handler.
func (s *Server) batchRoute(h httpapi.Handler) http.HandlerFunc {
	return s.batchWithin(httpapi.MaxBatchBody, h, writeError)
}

// batchWithin is authedWithin for a batch route: 503 while batch is
// disabled.
func (s *Server) batchWithin(maxBody int64, h httpapi.Handler, writeErr func(http.ResponseWriter, *apiError)) http.HandlerFunc {
	return s.authedWithin(maxBody, func(w http.ResponseWriter, r *http.Request, c *caller) {
		if s.batch == nil {
			writeErr(w, fromRow(errclass.Get(errclass.Unavailable), "batch disabled"))
			return
		}
		h(w, r, c)
	}, writeErr)
}

func (s *Server) handleBatchSubmit(w http.ResponseWriter, r *http.Request, c *caller) {
	var req apiv1.BatchSubmit
	if ae := httpapi.ReadJSON(r, &req); ae != nil {
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
		writeError(w, httpapi.BatchError(err))
		return
	}
	status := job.Status
	if !reused {
		status = store.JobQueued
	}
	httpapi.WriteJSON(w, http.StatusAccepted, apiv1.BatchSubmitted{Success: true, JobID: job.ID, Status: status,
		Targets: job.TargetsTotal, Reused: reused})
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
		if ae := service.ValidateFetch(req); ae != nil {
			ae.Message = fmt.Sprintf("invalid: targets[%d]: %s", i, httpapi.TrimClass(ae.Message, "invalid"))
			return nil, ae
		}
		if ae := httpapi.PreCheck(s.precheck, req.URL); ae != nil {
			ae.Message = fmt.Sprintf("blocked: targets[%d]: %s", i, httpapi.TrimClass(ae.Message, "blocked"))
			return nil, ae
		}
		opts, err := json.Marshal(service.StoredTarget{Fetch: req})
		if err != nil {
			return nil, classError(errclass.Internal, err.Error())
		}
		out[i] = batch.Target{URL: req.URL, Options: opts}
	}
	return out, nil
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
	from, ae := httpapi.NonNegative(q, "from")
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
			writeError(w, httpapi.BatchError(err))
			return
		}
		httpapi.WriteJSON(w, http.StatusOK, s.jobView(job, targets))
		return
	}
	job, page, more, err := s.batch.Results(r.Context(), service.BatchCaller(c), id,
		store.PageQuery{From: from, MaxBytes: int64(s.pageBytes)})
	if err != nil {
		writeError(w, httpapi.BatchError(err))
		return
	}
	v := s.jobView(job, page)
	if more {
		v.Next = fmt.Sprintf("/v1/batch/%s?results=1&from=%d", id, page[len(page)-1].Idx+1)
	}
	httpapi.WriteJSON(w, http.StatusOK, v)
}

// awaitJob holds a status read until the job changes or wait passes.
func (s *Server) awaitJob(ctx context.Context, c *caller, id string, wait time.Duration) *apiError {
	if err := s.batch.Await(ctx, service.BatchCaller(c), id, wait); err != nil {
		return httpapi.BatchError(err)
	}
	return nil
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
		if d, over = httpapi.ClientDuration(secs, time.Second, MaxWait); over || secs < 0 {
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
		writeError(w, httpapi.BatchError(batch.ErrNotFound))
		return
	}
	job, err := s.batch.Job(r.Context(), service.BatchCaller(c), vars["id"])
	if err == nil && idx >= job.TargetsTotal {
		writeError(w, classError(errclass.NotFound, fmt.Sprintf("the batch job has %d targets, numbered from 0: there is no target %d", job.TargetsTotal, idx)))
		return
	}
	var t *store.BatchTarget
	if err == nil {
		t, err = s.batch.Target(r.Context(), service.BatchCaller(c), vars["id"], idx)
	}
	if err != nil {
		writeError(w, httpapi.BatchError(err))
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, struct {
		JobID string `json:"job_id"`
		batchTargetView
	}{vars["id"], targetView(t)})
}

func (s *Server) handleBatchCancel(w http.ResponseWriter, r *http.Request, c *caller) {
	if err := s.batch.Cancel(r.Context(), service.BatchCaller(c), mux.Vars(r)["id"]); err != nil {
		writeError(w, httpapi.BatchError(err))
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "status": store.JobCancelled})
}
