package server

import (
	"net/http"

	"github.com/gorilla/mux"
)

// firecrawlUnsupported are the Firecrawl endpoints sift does not serve,
// each with what to use instead. Every path under them answers the same.
var firecrawlUnsupported = []struct{ prefix, instead string }{
	{"/v2/crawl", "sift does not crawl; list the URLs and use batch scrape (POST /v2/batch/scrape) instead"},
	{"/v1/crawl", "sift does not crawl; list the URLs and use batch scrape (POST /v2/batch/scrape) instead"},
	{"/v1/map", "use POST /v2/map (the links of one page), then batch scrape (POST /v2/batch/scrape) instead"},
	{"/v2/extract", "sift extracts from one page at a time: use scrape (POST /v2/scrape) or batch scrape (POST /v2/batch/scrape) with the json format (a schema and/or a prompt) instead"},
	{"/v1/extract", "sift extracts from one page at a time: use scrape (POST /v2/scrape) or batch scrape (POST /v2/batch/scrape) with the json format (a schema and/or a prompt) instead"},
	{"/v2/agent", "sift runs no agent; use /v2/search and batch scrape (POST /v2/batch/scrape) instead"},
	{"/v2/deep-research", "sift runs no research agent; use /v2/search and batch scrape (POST /v2/batch/scrape) instead"},
	{"/v2/llmstxt", "use batch scrape (POST /v2/batch/scrape) instead"},
	{"/v2/team", "sift counts no credits or tokens and keeps no queue to report; a scrape costs creditsUsed 1, and batch scrape (POST /v2/batch/scrape) reports its own progress"},
	{"/v1/team", "sift counts no credits or tokens and keeps no queue to report; a scrape costs creditsUsed 1, and batch scrape (POST /v2/batch/scrape) reports its own progress"},
	{"/v2/concurrency-check", "sift's limits are per caller and host; batch scrape (POST /v2/batch/scrape) queues the work instead"},
	{"/v1/scrape", "sift speaks Firecrawl v2: use POST /v2/scrape, or batch scrape (POST /v2/batch/scrape)"},
}

// routeFirecrawlUnsupported answers the Firecrawl endpoints sift does not
// serve with Firecrawl's error envelope, 404 (the SDKs show "error"
// as the message and retry no 4xx), saying what to use instead.
func routeFirecrawlUnsupported(r *mux.Router) {
	for _, u := range firecrawlUnsupported {
		body := map[string]any{"success": false, "code": "UNSUPPORTED",
			"error": "unsupported: " + u.prefix + " is not served by sift: " + u.instead}
		handler := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusNotFound, body)
		})
		r.Handle(u.prefix, handler)
		r.PathPrefix(u.prefix + "/").Handler(handler)
	}
}
