package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/siftd/sift/batch"
	"github.com/siftd/sift/store"
)

// Firecrawl's batch pages: at most this many documents unless `limit`
// says otherwise (1–1000).
const (
	firecrawlPageDefault = 100
	firecrawlPageMax     = 1000
)

// firecrawlBatchRequest is POST /v2/batch/scrape as sift applies it: the
// scrape options are flattened at the top level, and the fields sift does
// not apply are named in every document's warning (batchFields).
type firecrawlBatchRequest struct {
	URLs              []string `json:"urls"`
	IgnoreInvalidURLs *bool    `json:"ignoreInvalidURLs"`
	scrapeOptions
}

func (s *Server) handleFirecrawlBatchStart(w http.ResponseWriter, r *http.Request, c *caller) {
	raw, ae := readBody(r)
	if ae != nil {
		writeFirecrawlError(w, ae)
		return
	}
	var req firecrawlBatchRequest
	warnings, ae := decodeFirecrawl(raw, &req, batchFields)
	if ae == nil {
		req.Warnings = warnings
		ae = req.check()
	}
	if ae == nil {
		ae = req.readJSONFormat(raw)
	}
	if ae != nil {
		writeFirecrawlError(w, ae)
		return
	}
	if len(req.URLs) == 0 {
		writeFirecrawlError(w, firecrawlBadRequest("urls must be a non-empty list"))
		return
	}
	if len(req.Formats) == 0 {
		req.Formats = []scrapeFormat{"markdown"}
	}
	ignoreInvalid := req.IgnoreInvalidURLs == nil || *req.IgnoreInvalidURLs
	var targets []batch.Target
	invalid := []string{}
	for i, u := range req.URLs {
		if pre := s.preCheck(u); pre != nil {
			if !ignoreInvalid {
				writeFirecrawlError(w, firecrawlBadRequest(fmt.Sprintf("urls[%d]: %s", i, pre.Message)))
				return
			}
			invalid = append(invalid, u)
			continue
		}
		opts, _ := json.Marshal(batchOptions{Scrape: &scrapeRequest{URL: u, scrapeOptions: req.scrapeOptions}})
		targets = append(targets, batch.Target{URL: u, Options: opts})
	}
	if len(targets) == 0 {
		writeFirecrawlError(w, firecrawlBadRequest("no valid URL to scrape"))
		return
	}
	job, _, err := s.batch.Submit(r.Context(), batchCaller(c), targets)
	if err != nil {
		writeFirecrawlError(w, inFirecrawlWords(toAPIError(batchErr(err))))
		return
	}
	out := map[string]any{"success": true, "id": job.ID, "url": s.firecrawlJobURL(job.ID, nil), "invalidURLs": invalid}
	if len(req.Warnings) > 0 {
		out["warning"] = strings.Join(req.Warnings, "; ")
	}
	writeJSON(w, http.StatusOK, out)
}

// firecrawlJobURL is the absolute status URL of a job, as Firecrawl's SDKs
// expect, on the configured public URL: a request's Host header is the
// client's to write, so it never becomes a URL sift hands back.
func (s *Server) firecrawlJobURL(id string, query url.Values) string {
	u := s.publicURL + "/v2/batch/scrape/" + url.PathEscape(id)
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u
}

// firecrawlStatus maps sift's job status onto Firecrawl's four.
func firecrawlStatus(status string) string {
	switch status {
	case store.JobQueued, store.JobRunning:
		return "scraping"
	case store.JobDone, store.JobPartial:
		return "completed"
	default:
		return status // failed, cancelled
	}
}

func (s *Server) handleFirecrawlBatchStatus(w http.ResponseWriter, r *http.Request, c *caller) {
	skip, limit, ae := pageParams(r.URL.Query())
	if ae != nil {
		writeFirecrawlError(w, ae)
		return
	}
	id := mux.Vars(r)["id"]
	job, page, more, err := s.batch.Results(r.Context(), batchCaller(c), id,
		store.PageQuery{Status: store.TargetDone, Skip: skip, Limit: limit, MaxBytes: int64(s.pageBytes)})
	if err != nil {
		writeFirecrawlError(w, inFirecrawlWords(toAPIError(batchErr(err))))
		return
	}
	docs := make([]json.RawMessage, len(page))
	for i := range page {
		docs[i] = page[i].Result
	}
	out := map[string]any{"success": true, "status": firecrawlStatus(job.Status), "completed": job.TargetsDone,
		"total": job.TargetsTotal, "creditsUsed": job.TargetsDone,
		"expiresAt": job.Lease.Add(s.batch.Limits().TTL).UTC().Format(time.RFC3339), "data": docs}
	// A next page only while stored documents remain beyond this one:
	// Firecrawl's SDKs follow `next` at once, so a `next` to a page not
	// yet there would spin them; they poll the job itself while it works.
	if more {
		q := url.Values{"skip": {strconv.Itoa(skip + len(page))}}
		if r.URL.Query().Has("limit") {
			q.Set("limit", strconv.Itoa(limit))
		}
		out["next"] = s.firecrawlJobURL(id, q)
	}
	writeJSON(w, http.StatusOK, out)
}

// pageParams reads `skip` (a non-negative integer) and `limit` (1–1000).
func pageParams(q url.Values) (skip, limit int, ae *apiError) {
	limit = firecrawlPageDefault
	bad := func(msg string) (int, int, *apiError) {
		return 0, 0, firecrawlBadRequest(msg)
	}
	if v := q.Get("skip"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return bad(fmt.Sprintf("skip %q is not a non-negative integer", v))
		}
		skip = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > firecrawlPageMax {
			return bad(fmt.Sprintf("limit %q: want 1 to %d", v, firecrawlPageMax))
		}
		limit = n
	}
	return skip, limit, nil
}

func (s *Server) handleFirecrawlBatchCancel(w http.ResponseWriter, r *http.Request, c *caller) {
	if err := s.batch.Cancel(r.Context(), batchCaller(c), mux.Vars(r)["id"]); err != nil {
		writeFirecrawlError(w, inFirecrawlWords(toAPIError(batchErr(err))))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "cancelled"})
}

// handleFirecrawlBatchErrors lists the failed targets of a job, a page
// of at most pageBytes at a time (`skip` and `next` as for documents).
func (s *Server) handleFirecrawlBatchErrors(w http.ResponseWriter, r *http.Request, c *caller) {
	skip, ae := nonNegative(r.URL.Query(), "skip")
	if ae != nil {
		writeFirecrawlError(w, inFirecrawlWords(ae))
		return
	}
	id := mux.Vars(r)["id"]
	job, failed, err := s.batch.Summary(r.Context(), batchCaller(c), id, store.TargetFailed)
	if err != nil {
		writeFirecrawlError(w, inFirecrawlWords(toAPIError(batchErr(err))))
		return
	}
	failed = failed[min(skip, len(failed)):]
	errs := []map[string]any{}
	size := 0
	for _, t := range failed {
		if size += len(t.URL) + len(t.Error) + errorEntryBytes; len(errs) > 0 && size > s.pageBytes {
			break
		}
		errs = append(errs, map[string]any{"id": fmt.Sprintf("%s-%d", job.ID, t.Idx),
			"timestamp": job.Lease.UTC().Format(time.RFC3339), "url": t.URL, "error": t.Error})
	}
	out := map[string]any{"errors": errs, "robotsBlocked": []string{}}
	if len(errs) < len(failed) {
		out["next"] = s.firecrawlJobURL(id+"/errors", url.Values{"skip": {strconv.Itoa(skip + len(errs))}})
	}
	writeJSON(w, http.StatusOK, out)
}

// errorEntryBytes is what an error entry adds beside its URL and message.
const errorEntryBytes = 128
