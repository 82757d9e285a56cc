package firecrawl

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/service"
)

// firecrawlMapRequest is POST /v2/map as sift applies it: the links of the
// one page fetched, no crawl and no sitemap.
type firecrawlMapRequest struct {
	URL               string `json:"url"`
	Search            string `json:"search"`
	Limit             *int   `json:"limit"`
	IncludeSubdomains *bool  `json:"includeSubdomains"`
	Timeout           *int64 `json:"timeout"`
}

// mapFields are the fields of /v2/map.
var mapFields = map[string]fieldRule{
	"url": {}, "search": {}, "limit": {}, "includeSubdomains": {}, "timeout": {}, "origin": {}, "integration": {},
	"sitemap":               {refusal: "sift reads the links of the one page, not the sitemap", noop: `"skip"`},
	"ignoreQueryParameters": {refusal: notServed},
	"location":              {refusal: noProxy},
}

// Firecrawl's default and largest number of links a map returns.
const (
	mapLimitDefault = 5000
	mapLimitMax     = 100000
)

func (a *API) handleMap(w http.ResponseWriter, r *http.Request, c *service.Caller) {
	raw, ae := httpapi.ReadBody(r)
	if ae != nil {
		WriteError(w, ae)
		return
	}
	links, warnings, ae := a.mapPage(r.Context(), c, raw, mapFields)
	if ae != nil {
		WriteError(w, ae)
		return
	}
	out := map[string]any{"success": true, "links": links}
	if len(warnings) > 0 {
		out["warning"] = strings.Join(warnings, "; ")
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
}

// mapPage runs a map request raw, decoded under rules: the links of its
// page, filtered.
func (a *API) mapPage(ctx context.Context, c *service.Caller, raw []byte, rules map[string]fieldRule) ([]map[string]string, []string, *service.Error) {
	var req firecrawlMapRequest
	warnings, ae := decodeFirecrawl(raw, &req, rules)
	if ae == nil && req.URL == "" {
		ae = badRequest("url is required")
	}
	if msg := service.NoScheme(req.URL); ae == nil && msg != "" {
		ae = badRequest(msg)
	}
	// 0 and more than the largest are refused, as Firecrawl's schema
	// refuses them: 0 is not read as the default, nor is too many cut.
	if ae == nil && req.Limit != nil && (*req.Limit < 1 || *req.Limit > mapLimitMax) {
		ae = badField("limit", fmt.Sprintf("want a positive integer, at most %d", mapLimitMax))
	}
	if ae != nil {
		return nil, nil, ae
	}
	limit := mapLimitDefault
	if req.Limit != nil {
		limit = *req.Limit
	}
	scrape := &scrapeRequest{URL: req.URL, scrapeOptions: scrapeOptions{Formats: []scrapeFormat{"links"}, Timeout: req.Timeout}}
	if ae := scrape.check(); ae != nil {
		return nil, nil, ae
	}
	doc, ae := a.scrapeTarget(ctx, c, scrape)
	if ae != nil {
		return nil, nil, ae
	}
	subdomains := req.IncludeSubdomains == nil || *req.IncludeSubdomains
	links := mapLinks(*doc.Links, doc.Metadata.URL, req.Search, subdomains, limit)
	if doc.Warning != "" {
		warnings = append(warnings, doc.Warning)
	}
	return links, warnings, nil
}

// mapLinks keeps the links on the page's own site (its subdomains too when
// asked) whose URL contains search (any case), at most limit of them.
func mapLinks(links []string, page, search string, subdomains bool, limit int) []map[string]string {
	out := []map[string]string{}
	site := ""
	if u, err := url.Parse(page); err == nil {
		site = strings.ToLower(u.Hostname())
	}
	search = strings.ToLower(search)
	for _, l := range links {
		if len(out) == limit {
			break
		}
		u, err := url.Parse(l)
		if err != nil {
			continue
		}
		host := strings.ToLower(u.Hostname())
		if host != site && !(subdomains && strings.HasSuffix(host, "."+site)) {
			continue
		}
		if search != "" && !strings.Contains(strings.ToLower(l), search) {
			continue
		}
		out = append(out, map[string]string{"url": l})
	}
	return out
}
