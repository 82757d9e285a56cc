package firecrawl

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// firecrawlUnsupported are the Firecrawl endpoints sift does not serve,
// each with what to use instead. Every path under them answers the same.
var firecrawlUnsupported = []struct{ prefix, instead string }{
	{"/v2/crawl", "sift does not crawl; list the URLs (map lists a page's links) and " + perURL},
	{"/v1/crawl", "sift does not crawl; list the URLs (map lists a page's links) and " + perURL},
	{"/v2/extract", "sift extracts from one page at a time: " + perURLWith("the json format (a schema and/or a prompt)")},
	{"/v1/extract", "sift extracts from one page at a time: " + perURLWith("the json format (a schema and/or a prompt)")},
	{"/v2/agent", "sift runs no agent; search (POST /v2/search; firecrawl_search), then " + perURL},
	{"/v2/deep-research", "sift runs no research agent; search (POST /v2/search; firecrawl_search), then " + perURL},
	{"/v2/llmstxt", "sift writes no llms.txt; " + perURL},
	{"/v2/team", "sift counts no credits or tokens and keeps no queue to report; a scrape costs creditsUsed 1, and batch scrape (POST /v2/batch/scrape) reports its own progress"},
	{"/v1/team", "sift counts no credits or tokens and keeps no queue to report; a scrape costs creditsUsed 1, and batch scrape (POST /v2/batch/scrape) reports its own progress"},
	{"/v2/concurrency-check", "sift's limits are per caller and host; scrape the URLs one by one, or batch scrape (POST /v2/batch/scrape) queues them instead"},
	{"/v2/parse", "sift converts documents it fetches: serve the file on a URL and scrape it (POST /v2/scrape; firecrawl_scrape)"},
	{"/v2/browser", "sift renders no page and runs no browser; scrape (POST /v2/scrape; firecrawl_scrape) answers pages as fetched"},
	{"/v2/monitor", "sift watches no page for changes; scrape it again with the changeTracking format (POST /v2/scrape; firecrawl_scrape with formats [\"markdown\", \"changeTracking\"]), which says new, same or changed since the last such scrape"},
	{"/v2/feedback", "sift keeps no feedback; scrape (POST /v2/scrape) and search (POST /v2/search) are what it serves"},
}

// perURL is the advice for work over many pages, in words each client
// can follow: the API's scrape and batch scrape, and firecrawl-mcp's
// scrape tool (it has no batch tool).
const perURL = "scrape each (POST /v2/scrape; firecrawl-mcp: firecrawl_scrape per URL), or batch scrape the list (POST /v2/batch/scrape)"

// perURLWith is perURL with what each scrape asks for.
func perURLWith(what string) string {
	return "scrape each page with " + what + " (POST /v2/scrape; firecrawl-mcp: firecrawl_scrape per URL), or batch scrape the list with it (POST /v2/batch/scrape)"
}

// served lists what sift does serve, for the answer to a v2 path
// it does not know.
const served = "sift serves POST /v2/scrape, /v2/search, /v2/map and /v2/batch/scrape (with its status, errors and cancel)"

// routeUnsupported answers the Firecrawl endpoints sift does not
// serve (firecrawlUnsupported), saying what to use instead, behind the
// caller's key as every other route: what sift serves, and that it runs
// at all, is told only to a caller it knows.
func routeUnsupported(r *mux.Router, req func(httpapi.Handler) http.HandlerFunc) {
	for _, u := range firecrawlUnsupported {
		handler := req(unsupportedAnswer(u.prefix + " is not served by sift: " + u.instead))
		r.Handle(u.prefix, handler)
		r.PathPrefix(u.prefix + "/").Handler(handler)
	}
	// Endpoints under a path sift serves, for the paths of its own
	// routes to stay exact.
	r.Handle("/v2/scrape/{id}/interact", req(unsupportedAnswer("/v2/scrape/{id}/interact is not served by sift: "+
		"sift renders no page and runs no browser; scrape (POST /v2/scrape; firecrawl_scrape) answers the page as fetched")))
	r.PathPrefix("/v2/search/research").Handler(req(unsupportedAnswer("/v2/search/research is not served by sift: " +
		"search (POST /v2/search; firecrawl_search), then " + perURL)))
}

// NotServed answers a /v2 path that is no endpoint sift knows of,
// Firecrawl's or its own, as unsupported rather than not found: a newer
// Firecrawl client calls endpoints this list does not name yet. The
// caller is one the server has already authenticated.
func NotServed(w http.ResponseWriter, r *http.Request, _ *service.Caller) {
	writeUnsupported(w, r.URL.Path+" is not a Firecrawl endpoint sift serves: "+served)
}

// unsupportedAnswer answers every request with writeUnsupported's msg.
func unsupportedAnswer(msg string) httpapi.Handler {
	return func(w http.ResponseWriter, _ *http.Request, _ *service.Caller) { writeUnsupported(w, msg) }
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
