package firecrawl

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// POST /v2/search, Firecrawl's shape: data.web[] of url, title,
// description, position. Scrape fields appear only when scrapeOptions asks.
type firecrawlSearchRequest struct {
	Query         string          `json:"query"`
	Limit         int             `json:"limit"`
	ScrapeOptions json.RawMessage `json:"scrapeOptions"`
	// Sources, DomainTools and ToolDetail are read for sourcesWarning.
	Sources     []searchSource `json:"sources"`
	DomainTools *bool          `json:"domainTools"`
	ToolDetail  *string        `json:"toolDetail"`
}

// searchSource is a search source given as "web" or as {"type": "web"}.
type searchSource string

func (s *searchSource) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err == nil {
		*s = searchSource(name)
		return nil
	}
	var obj struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &obj); err != nil || obj.Type == "" {
		return fmt.Errorf("a source is a string or an object with a type")
	}
	*s = searchSource(obj.Type)
	return nil
}

// sourcesWarning is the one warning for what of the sources sift does
// not search: it searches the web. firecrawl-mcp sends sources ["web",
// "alexandria"] with domainTools true and toolDetail "compact" on every
// search (Firecrawl's Alexandria catalogue of data providers, which a
// Firecrawl team without it answers 403, the client then retrying with
// the web only): the web is searched and the rest named once, so the
// search needs no second round trip. "exchange" is Alexandria's old name.
func sourcesWarning(req *firecrawlSearchRequest) string {
	var notServed []string
	alexandria := false
	for _, s := range req.Sources {
		switch s {
		case "web":
		case "alexandria", "exchange":
			alexandria = true
			notServed = append(notServed, fmt.Sprintf("sources %q (Firecrawl's catalogue of data providers)", string(s)))
		default:
			notServed = append(notServed, fmt.Sprintf("sources %q", string(s)))
		}
	}
	if req.DomainTools != nil && *req.DomainTools {
		notServed = append(notServed, "domainTools")
	}
	if req.ToolDetail != nil && (alexandria || (req.DomainTools != nil && *req.DomainTools) || *req.ToolDetail != "compact") {
		notServed = append(notServed, "toolDetail")
	}
	if len(notServed) == 0 && (req.Sources == nil || slices.Contains(req.Sources, "web")) {
		return ""
	}
	if len(notServed) == 0 {
		notServed = []string{"sources without web"}
	}
	msg := "not applied: " + strings.Join(notServed, ", ") + " (sift searches the web only"
	if !slices.Contains(req.Sources, "web") {
		msg += "; web results stand in"
	}
	return msg + ")"
}

// firecrawlSearchLimit is Firecrawl's default number of results.
const firecrawlSearchLimit = 5

type firecrawlWebResult struct {
	URL         string `json:"url"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Position    int    `json:"position"`
	// The scraped document, when scrapeOptions ask for it.
	Markdown *string         `json:"markdown,omitempty"`
	HTML     *string         `json:"html,omitempty"`
	RawHTML  *string         `json:"rawHtml,omitempty"`
	Summary  *string         `json:"summary,omitempty"`
	Links    *[]string       `json:"links,omitempty"`
	JSON     json.RawMessage `json:"json,omitempty"`
	// The question and highlights formats, as a scrape answers them.
	Answer     *string         `json:"answer,omitempty"`
	Highlights *string         `json:"highlights,omitempty"`
	Metadata   *scrapeMetadata `json:"metadata,omitempty"`
}

// searchScrapeOptions decodes a search's scrapeOptions; nil when there are
// none.
func searchScrapeOptions(raw json.RawMessage) (*scrapeOptions, *service.Error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var opts scrapeOptions
	warnings, ae := decodeFirecrawl(raw, &opts, scrapeFields)
	if ae != nil {
		ae.Message = strings.Replace(ae.Message, "Bad Request: ", "Bad Request: scrapeOptions: ", 1)
		return nil, ae
	}
	opts.Warnings = warnings
	if ae := opts.check(); ae != nil {
		return nil, ae
	}
	if ae := opts.readJSONFormat(raw); ae != nil {
		return nil, ae
	}
	if len(opts.Formats) == 0 {
		opts.Formats = []scrapeFormat{"markdown"}
	}
	return &opts, nil
}

// scrapeResults scrapes each result through the guarded chain, one after
// the other within the request's deadline; a result that fails keeps its
// url, title and description, and its failure is a warning.
func (a *API) scrapeResults(ctx context.Context, c *service.Caller, opts *scrapeOptions, web []firecrawlWebResult) []string {
	var warnings []string
	for _, w := range opts.Warnings {
		warnings = append(warnings, "scrapeOptions: "+w)
	}
	each := *opts
	each.Warnings = nil // said once above, not per result
	for i := range web {
		doc, ae := a.scrapeTarget(ctx, c, &scrapeRequest{URL: web[i].URL, scrapeOptions: each})
		if ae != nil {
			warnings = append(warnings, fmt.Sprintf("%s: %s", web[i].URL, ae.Message))
			continue
		}
		r := &web[i]
		r.Markdown, r.HTML, r.RawHTML, r.Summary, r.Links, r.Metadata = doc.Markdown, doc.HTML, doc.RawHTML, doc.Summary, doc.Links, &doc.Metadata
		r.JSON, r.Answer, r.Highlights = doc.JSON, doc.Answer, doc.Highlights
		if doc.Warning != "" {
			warnings = append(warnings, fmt.Sprintf("%s: %s", web[i].URL, doc.Warning))
		}
	}
	return warnings
}

func (a *API) handleSearch(w http.ResponseWriter, r *http.Request, c *service.Caller) {
	httpapi.LogOf(r.Context()).SetMode("search")
	raw, ae := httpapi.ReadBody(r)
	if ae != nil {
		WriteError(w, ae)
		return
	}
	web, warnings, ae := a.search(r.Context(), c, raw, searchFields, false)
	if ae != nil {
		WriteError(w, ae)
		return
	}
	body := map[string]any{"success": true, "data": map[string]any{"web": web}, "id": newID(), "creditsUsed": 1}
	if len(warnings) > 0 {
		body["warning"] = strings.Join(warnings, "; ")
	}
	httpapi.WriteJSON(w, http.StatusOK, body)
}

// search runs a Firecrawl search request raw, decoded under rules, and
// scrapes its results when its scrapeOptions ask; v1 reads an empty
// formats list as no scrape, as Firecrawl v1 does.
func (a *API) search(ctx context.Context, c *service.Caller, raw []byte, rules map[string]fieldRule, v1 bool) ([]firecrawlWebResult, []string, *service.Error) {
	var req firecrawlSearchRequest
	fieldWarns, ae := decodeFirecrawl(raw, &req, rules)
	if ae != nil {
		return nil, nil, ae
	}
	if req.Query == "" {
		return nil, nil, badRequest("query is required")
	}
	if v1 && noFormats(req.ScrapeOptions) {
		req.ScrapeOptions = nil
	}
	scrape, ae := searchScrapeOptions(req.ScrapeOptions)
	if ae != nil {
		return nil, nil, ae
	}
	if req.Limit <= 0 {
		req.Limit = firecrawlSearchLimit
	}
	req.Limit = min(req.Limit, 100)
	out, err := a.svc.SearchWeb(ctx, req.Query, req.Limit)
	if err != nil {
		return nil, nil, service.ErrorOf(err)
	}
	web := make([]firecrawlWebResult, 0, len(out.Results))
	for i, res := range out.Results {
		web = append(web, firecrawlWebResult{URL: res.URL, Title: res.Title, Description: res.Snippet, Position: i + 1})
	}
	warnings := append(append([]string{}, out.Warnings...), fieldWarns...)
	if w := sourcesWarning(&req); w != "" {
		warnings = append(warnings, w)
	}
	if scrape != nil {
		warnings = append(warnings, a.scrapeResults(ctx, c, scrape, web)...)
	}
	return web, warnings, nil
}

// noFormats reports whether scrapeOptions ask for no format at all
// ({"formats": []}), which firecrawl-js 1.x sends with every search.
func noFormats(raw json.RawMessage) bool {
	var opts struct {
		Formats *[]json.RawMessage `json:"formats"`
	}
	return json.Unmarshal(raw, &opts) == nil && opts.Formats != nil && len(*opts.Formats) == 0
}
