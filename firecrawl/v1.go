package firecrawl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// Firecrawl v1, as the clients still in agents' lockfiles speak it
// (@mendable/firecrawl-js 1.x): POST /v1/scrape and /v1/map, which no
// native route takes, and POST /v1/search, sift's own search's path,
// told apart by its fields (IsV1Search). Each runs the v2 pipeline and
// answers in v1's shape.

// v1ScrapeFields are /v1/scrape's fields: v2's, with v1's names.
var v1ScrapeFields = merge(scrapeFields, map[string]fieldRule{
	"url":         {},
	"extract":     {}, // v1's jsonOptions, for the extract format
	"parsePDF":    {refusal: "sift always reads PDFs as text", noop: "true"},
	"geolocation": {refusal: noProxy},
	"agent":       {refusal: "sift runs no agent"},
})

// v1MapFields are /v1/map's fields: v2's, with v1's sitemap switches.
var v1MapFields = merge(mapFields, map[string]fieldRule{
	"ignoreSitemap": {refusal: "sift reads the links of the one page, not the sitemap", noop: "true"},
	"sitemapOnly":   {refusal: "sift reads the links of the one page, not the sitemap"},
})

// v1SearchFields are Firecrawl v1 search's fields. firecrawl-js 1.x
// sends lang "en", country "us" and timeout 60000 with every search:
// those defaults ask for nothing.
var v1SearchFields = merge(searchFields, map[string]fieldRule{
	"lang":    {refusal: notServed, noop: `"en"`},
	"country": {refusal: noProxy, noop: `"us"`},
	"timeout": {refusal: notServed, noop: "60000"},
	"filter":  {refusal: notServed},
})

// v1OnlyFields are search fields Firecrawl v1's search has and sift's own
// /v1/search has not; nativeSearchFields the reverse.
var (
	v1OnlyFields       = []string{"limit", "tbs", "filter", "lang", "country", "location", "origin", "integration", "timeout", "scrapeOptions", "ignoreInvalidURLs"}
	nativeSearchFields = []string{"question", "k", "rerank", "digest"}
)

// IsV1Search reports whether a POST /v1/search body is Firecrawl v1's
// rather than sift's own: it has a field only Firecrawl's has (limit,
// lang, country, origin, scrapeOptions, …) and none only sift's has
// (question, k, rerank, digest). firecrawl-js 1.x always sends limit,
// lang, country, origin and timeout; a body of sift's own fields alone,
// or one that is no JSON object, stays sift's.
func IsV1Search(raw []byte) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return false
	}
	v1 := false
	for name := range fields {
		if slices.Contains(nativeSearchFields, name) {
			return false
		}
		v1 = v1 || slices.Contains(v1OnlyFields, name)
	}
	return v1
}

// SearchV1 answers a Firecrawl v1 search (IsV1Search): data is the list
// of results, v1's shape.
func (a *API) SearchV1(w http.ResponseWriter, r *http.Request, raw []byte, c *service.Caller) {
	httpapi.LogOf(r.Context()).SetMode("search")
	web, warnings, ae := a.search(r.Context(), c, raw, v1SearchFields, true)
	if ae != nil {
		writeErrorV1(w, ae, false)
		return
	}
	body := map[string]any{"success": true, "data": web}
	if len(warnings) > 0 {
		body["warning"] = strings.Join(warnings, "; ")
	}
	httpapi.WriteJSON(w, http.StatusOK, body)
}

// handleScrapeV1 answers POST /v1/scrape: v1's formats and fields read as
// v2's (extract is json, its options jsonOptions), the document as v2
// makes it.
func (a *API) handleScrapeV1(w http.ResponseWriter, r *http.Request, c *service.Caller) {
	raw, ae := httpapi.ReadBody(r)
	if ae != nil {
		WriteError(w, ae)
		return
	}
	js1 := fromJSV1(raw)
	v2, extract := v1Scrape(raw)
	req, ae := decodeScrapeBody(v2, v1ScrapeFields)
	if ae != nil {
		writeErrorV1(w, ae, js1)
		return
	}
	rl := httpapi.LogOf(r.Context())
	rl.SetMode(scrapeMode(req))
	data, ae := a.scrapeTarget(r.Context(), c, req)
	if ae != nil {
		writeErrorV1(w, ae, js1)
		return
	}
	if extract {
		data.Extract, data.JSON = data.JSON, nil
	}
	rl.Answer(data.Metadata.Sift.Cached, data.Metadata.Sift.Tokens["returned"], warningCount(data.Warning))
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "data": data})
}

// v1Scrape rewrites a v1 scrape body as v2's: the extract format is json,
// and its options (extract) are jsonOptions. extract reports whether the
// request named the format extract, whose answer v1 calls extract.
func v1Scrape(raw []byte) (out []byte, extract bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return raw, false // decodeScrapeBody names what is wrong
	}
	var formats []json.RawMessage
	if json.Unmarshal(fields["formats"], &formats) == nil {
		for i, f := range formats {
			if bytes.Equal(bytes.TrimSpace(f), []byte(`"extract"`)) {
				formats[i], extract = json.RawMessage(`"json"`), true
			}
		}
		fields["formats"], _ = json.Marshal(formats)
	}
	if opts, ok := fields["extract"]; ok {
		if _, has := fields["jsonOptions"]; !has {
			fields["jsonOptions"] = opts
		}
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return raw, false
	}
	return out, extract
}

// handleMapV1 answers POST /v1/map: links is a list of URLs, v1's shape.
// firecrawl-js 1.x's mapUrl returns a 200's body as it is and turns any
// other status into its bare "Request failed with status code N", so its
// refusals are a 200 with success false and the error, which it returns
// to the caller whole.
func (a *API) handleMapV1(w http.ResponseWriter, r *http.Request, c *service.Caller) {
	raw, ae := httpapi.ReadBody(r)
	if ae != nil {
		WriteError(w, ae)
		return
	}
	links, warnings, ae := a.mapPage(r.Context(), c, raw, v1MapFields)
	if ae != nil {
		if fromJSV1(raw) {
			_, body := errorAnswer(ae)
			httpapi.WriteJSON(w, http.StatusOK, body)
			return
		}
		WriteError(w, ae)
		return
	}
	urls := make([]string, len(links))
	for i, l := range links {
		urls[i] = l["url"]
	}
	out := map[string]any{"success": true, "links": urls}
	if len(warnings) > 0 {
		out["warning"] = strings.Join(warnings, "; ")
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}

// fromJSV1 reports whether a request body may come from firecrawl-js 1.x:
// its origin field says "js-sdk@1.…", or it has none, as 1.21 and older
// send (what npm installs on Node 20, since 1.22 wants Node 22). A v1
// route has no other clients sift knows of, and those show a reason under
// any status.
func fromJSV1(raw []byte) bool {
	var body struct {
		Origin string `json:"origin"`
	}
	return json.Unmarshal(raw, &body) == nil && (body.Origin == "" || strings.HasPrefix(body.Origin, "js-sdk@1."))
}

// shownByJSV1 are the statuses whose error firecrawl-js 1.x's scrapeUrl
// shows; any other it reports as "Unexpected error … Status code: N",
// without the reason, and a 200 with success false as "the server is
// unreachable".
var shownByJSV1 = []int{400, 402, 403, 408, 409, 500}

// writeErrorV1 writes a v1 route's refusal. For firecrawl-js 1.x (js1)
// a status it would not show the reason of goes out as 400 (a 4xx) or
// 500 (a 5xx), the real status in the message, so the caller reads why.
func writeErrorV1(w http.ResponseWriter, e *service.Error, js1 bool) {
	status, body := errorAnswer(e)
	if js1 && !slices.Contains(shownByJSV1, status) {
		body["error"] = fmt.Sprintf("%s (HTTP %d %s)", body["error"], status, http.StatusText(status))
		if status < 500 {
			status = http.StatusBadRequest
		} else {
			status = http.StatusInternalServerError
		}
	}
	httpapi.SetRetryAfter(w, e)
	httpapi.WriteJSON(w, status, body)
}
