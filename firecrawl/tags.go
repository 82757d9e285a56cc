package firecrawl

import (
	"fmt"
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/siftd/sift/internal/service"
)

// The html extractor's page options (plugins/html, OptionMainContent and
// the others), named here so that sift itself does not link the extractor:
// it runs in its own process.
const (
	optMainContent = "only_main_content"
	optIncludeTags = "include_tags"
	optExcludeTags = "exclude_tags"
	// optImages renders the content's images, optBase64Images keeps with
	// them those the page inlines as data: URIs.
	optImages       = "images"
	optBase64Images = "base64_images"
)

// pageOptions adds Firecrawl's onlyMainContent, includeTags and
// excludeTags to opts as the html extractor's options. Selectors go one a
// line: a selector holds no line break, while commas are its own syntax.
func (o *scrapeOptions) pageOptions(opts map[string]string) {
	if o.OnlyMainContent != nil && !*o.OnlyMainContent {
		opts[optMainContent] = "false"
	}
	if tags := selectorLines(o.IncludeTags); tags != "" {
		opts[optIncludeTags] = tags
	}
	if tags := selectorLines(o.ExcludeTags); tags != "" {
		opts[optExcludeTags] = tags
	}
}

// checkSelectors refuses a selector of includeTags or excludeTags that
// does not parse: it would match nothing, and the caller would never learn
// why.
func (o *scrapeOptions) checkSelectors() *service.Error {
	for _, f := range []struct {
		name string
		sels []string
	}{{"includeTags", o.IncludeTags}, {"excludeTags", o.ExcludeTags}} {
		for i, s := range f.sels {
			if strings.TrimSpace(s) == "" {
				continue
			}
			if _, err := cascadia.ParseGroup(s); err != nil {
				return badField(fmt.Sprintf("%s[%d]", f.name, i), fmt.Sprintf("%q is not a CSS selector: %v", s, err))
			}
		}
	}
	return nil
}

func selectorLines(sels []string) string {
	var kept []string
	for _, s := range sels {
		if s = strings.Join(strings.Fields(s), " "); s != "" {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, "\n")
}

// firecrawlFieldNames name the Firecrawl fields that become extractor
// options and that pageOptionsWarning does not already cover.
var firecrawlFieldNames = map[string]string{"max_pages": "parsers maxPages", optBase64Images: "removeBase64Images"}

// pageOptionsWarning names the page options a document that is no HTML
// page did not use.
func (o *scrapeOptions) pageOptionsWarning(mediaType string) string {
	if strings.Contains(mediaType, "html") {
		return ""
	}
	var named []string
	if o.OnlyMainContent != nil && !*o.OnlyMainContent {
		named = append(named, "onlyMainContent")
	}
	if len(o.IncludeTags) > 0 {
		named = append(named, "includeTags")
	}
	if len(o.ExcludeTags) > 0 {
		named = append(named, "excludeTags")
	}
	if len(named) == 0 {
		return ""
	}
	return "not applied: " + strings.Join(named, ", ") + " (they choose parts of an HTML page; this document is " + mediaType + ")"
}
