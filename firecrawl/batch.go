package firecrawl

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
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
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

func (a *API) handleBatchStart(w http.ResponseWriter, r *http.Request, c *service.Caller) {
	raw, ae := httpapi.ReadBody(r)
	if ae != nil {
		WriteError(w, ae)
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
		WriteError(w, ae)
		return
	}
	if len(req.URLs) == 0 {
		WriteError(w, badRequest("urls must be a non-empty list"))
		return
	}
	if len(req.Formats) == 0 {
		req.Formats = []scrapeFormat{"markdown"}
	}
	ignoreInvalid := req.IgnoreInvalidURLs == nil || *req.IgnoreInvalidURLs
	var targets []batch.Target
	invalid := []string{}
	for i, u := range req.URLs {
		if pre := httpapi.PreCheck(a.precheck, u); pre != nil {
			if !ignoreInvalid {
				WriteError(w, badRequest(fmt.Sprintf("urls[%d]: %s", i, pre.Message)))
				return
			}
			invalid = append(invalid, u)
			continue
		}
		opts, _ := json.Marshal(storedScrape(u, req.scrapeOptions))
		targets = append(targets, batch.Target{URL: u, Options: opts})
	}
	if len(targets) == 0 {
		WriteError(w, badRequest("no valid URL to scrape"))
		return
	}
	job, _, err := a.batch.Submit(r.Context(), service.BatchCaller(c), targets)
	if err != nil {
		WriteError(w, inFirecrawlWords(httpapi.BatchError(err)))
		return
	}
	out := map[string]any{"success": true, "id": job.ID, "url": a.jobURL(job.ID, nil), "invalidURLs": invalid}
	if len(req.Warnings) > 0 {
		out["warning"] = strings.Join(req.Warnings, "; ")
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}

// firecrawlJobURL is the absolute status URL of a job, as Firecrawl's SDKs
// expect, on the configured public URL: a request's Host header is the
// client's to write, so it never becomes a URL sift hands back.
func (a *API) jobURL(id string, query url.Values) string {
	u := a.publicURL + "/v2/batch/scrape/" + url.PathEscape(id)
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u
}

// firecrawlStatus maps sift's job status onto Firecrawl's four.
func jobStatus(status string) string {
	switch status {
	case store.JobQueued, store.JobRunning:
		return "scraping"
	case store.JobDone, store.JobPartial:
		return "completed"
	default:
		return status // failed, cancelled
	}
}

func (a *API) handleBatchStatus(w http.ResponseWriter, r *http.Request, c *service.Caller) {
	skip, limit, ae := pageParams(r.URL.Query())
	if ae != nil {
		WriteError(w, ae)
		return
	}
	id := mux.Vars(r)["id"]
	job, page, more, err := a.batch.Results(r.Context(), service.BatchCaller(c), id,
		store.PageQuery{Status: store.TargetDone, Skip: skip, Limit: limit, MaxBytes: int64(a.pageBytes)})
	if err != nil {
		WriteError(w, inFirecrawlWords(httpapi.BatchError(err)))
		return
	}
	docs := make([]json.RawMessage, len(page))
	for i := range page {
		docs[i] = page[i].Result
	}
	out := map[string]any{"success": true, "status": jobStatus(job.Status), "completed": job.TargetsDone,
		"total": job.TargetsTotal, "creditsUsed": job.TargetsDone,
		"expiresAt": job.Lease.Add(a.batch.Limits().TTL).UTC().Format(time.RFC3339), "data": docs}
	// A next page only while stored documents remain beyond this one:
	// Firecrawl's SDKs follow `next` at once, so a `next` to a page not
	// yet there would spin them; they poll the job itself while it works.
	if more {
		q := url.Values{"skip": {strconv.Itoa(skip + len(page))}}
		if r.URL.Query().Has("limit") {
			q.Set("limit", strconv.Itoa(limit))
		}
		out["next"] = a.jobURL(id, q)
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}

// pageParams reads `skip` (a non-negative integer) and `limit` (1–1000).
func pageParams(q url.Values) (skip, limit int, ae *service.Error) {
	limit = firecrawlPageDefault
	bad := func(msg string) (int, int, *service.Error) {
		return 0, 0, badRequest(msg)
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

func (a *API) handleBatchCancel(w http.ResponseWriter, r *http.Request, c *service.Caller) {
	if err := a.batch.Cancel(r.Context(), service.BatchCaller(c), mux.Vars(r)["id"]); err != nil {
		WriteError(w, inFirecrawlWords(httpapi.BatchError(err)))
		return
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"status": "cancelled"})
}

// handleBatchErrors lists the failed targets of a job, a page
// of at most pageBytes at a time (`skip` and `next` as for documents).
func (a *API) handleBatchErrors(w http.ResponseWriter, r *http.Request, c *service.Caller) {
	skip, ae := httpapi.NonNegative(r.URL.Query(), "skip")
	if ae != nil {
		WriteError(w, inFirecrawlWords(ae))
		return
	}
	id := mux.Vars(r)["id"]
	job, failed, err := a.batch.Summary(r.Context(), service.BatchCaller(c), id, store.TargetFailed)
	if err != nil {
		WriteError(w, inFirecrawlWords(httpapi.BatchError(err)))
		return
	}
	failed = failed[min(skip, len(failed)):]
	errs := []map[string]any{}
	size := 0
	for _, t := range failed {
		if size += len(t.URL) + len(t.Error) + errorEntryBytes; len(errs) > 0 && size > a.pageBytes {
			break
		}
		errs = append(errs, map[string]any{"id": fmt.Sprintf("%s-%d", job.ID, t.Idx),
			"timestamp": job.Lease.UTC().Format(time.RFC3339), "url": t.URL, "error": t.Error})
	}
	out := map[string]any{"errors": errs, "robotsBlocked": []string{}}
	if len(errs) < len(failed) {
		out["next"] = a.jobURL(id+"/errors", url.Values{"skip": {strconv.Itoa(skip + len(errs))}})
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}

// errorEntryBytes is what an error entry adds beside its URL and message.
const errorEntryBytes = 128

// storedScrape is what a batch target of a Firecrawl batch stores: its
// scrape request under the API's name.
func storedScrape(url string, opts scrapeOptions) service.StoredTarget {
	raw, _ := json.Marshal(scrapeRequest{URL: url, scrapeOptions: opts})
	return service.StoredTarget{Scrape: raw}
}
