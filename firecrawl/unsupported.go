package firecrawl

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/siftd/sift/internal/httpapi"
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
	{"/v2/parse", "sift converts documents it fetches: serve the file on a URL and use scrape (POST /v2/scrape) or batch scrape (POST /v2/batch/scrape)"},
	{"/v2/browser", "sift renders no page and runs no browser; scrape (POST /v2/scrape) and batch scrape (POST /v2/batch/scrape) answer pages as fetched"},
	{"/v2/monitor", "sift watches no page for changes; scrape it again with maxAge 0, or batch scrape (POST /v2/batch/scrape) a list"},
	{"/v2/feedback", "sift keeps no feedback; scrape (POST /v2/scrape) and batch scrape (POST /v2/batch/scrape) are what it serves"},
}

// served lists what sift does serve, for the answer to a v2 path
// it does not know.
const served = "sift serves POST /v2/scrape, /v2/search, /v2/map and /v2/batch/scrape (with its status, errors and cancel)"

// routeUnsupported answers the Firecrawl endpoints sift does not
// serve (firecrawlUnsupported and any other /v2 path, through
// NotServed), saying what to use instead.
func routeUnsupported(r *mux.Router) {
	for _, u := range firecrawlUnsupported {
		handler := unsupportedAnswer(u.prefix + " is not served by sift: " + u.instead)
		r.Handle(u.prefix, handler)
		r.PathPrefix(u.prefix + "/").Handler(handler)
	}
	// Endpoints under a path sift serves, for the paths of its own
	// routes to stay exact.
	r.Handle("/v2/scrape/{id}/interact", unsupportedAnswer("/v2/scrape/{id}/interact is not served by sift: "+
		"sift renders no page and runs no browser; scrape (POST /v2/scrape) answers the page as fetched"))
	r.PathPrefix("/v2/search/research").Handler(unsupportedAnswer("/v2/search/research is not served by sift: " +
		"use /v2/search, then batch scrape (POST /v2/batch/scrape) the results"))
}

// NotServed answers a /v2 path that is no endpoint sift knows of,
// Firecrawl's or its own, as unsupported rather than not found: a newer
// Firecrawl client calls endpoints this list does not name yet.
func NotServed(w http.ResponseWriter, r *http.Request) {
	writeUnsupported(w, r.URL.Path+" is not a Firecrawl endpoint sift serves: "+served)
}

// unsupportedAnswer answers every request with writeUnsupported's msg.
func unsupportedAnswer(msg string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { writeUnsupported(w, msg) })
}

// writeUnsupported writes Firecrawl's error envelope with the message
// "unsupported: " + msg, under status 200, the message also its one
// agent_hints entry. Every Firecrawl client reads success and error from a
// 200 answer: the SDK throws an error whose message is the text (or
// returns the envelope), and the firecrawl-mcp tools that call through the
// SDK's raw HTTP client hand the agent the body, where a non-2xx status
// reaches the agent only as "Request failed with status code 404". Those
// that copy only some fields of the body (crawl status, research) pass
// agent_hints on: firecrawl-mcp's channel for guidance to the agent.
func writeUnsupported(w http.ResponseWriter, msg string) {
	text := "unsupported: " + msg
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"success": false, "code": "UNSUPPORTED", "error": text, "agent_hints": []string{text}})
}
