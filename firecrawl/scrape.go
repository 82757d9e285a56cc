package firecrawl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/internal/httpapi"
	"github.com/siftd/sift/internal/invisible"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/mediatype"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/tokens"
)

// scrapeRequest is Firecrawl's POST /v2/scrape body as sift applies it;
// the fields it does not apply are named in Warnings (scrapeFields).
type scrapeRequest struct {
	URL string `json:"url"`
	scrapeOptions
}

// scrapeOptions are the scrape options sift honours, and the warnings for
// those it does not; a batch target carries them in its stored options.
type scrapeOptions struct {
	Formats []scrapeFormat `json:"formats,omitempty"`
	// MaxAge in milliseconds: a cached copy older than this is not used.
	MaxAge *int64 `json:"maxAge,omitempty"`
	// MinAge in milliseconds: only a cached copy at least this old
	// answers, and the origin is never contacted.
	MinAge *int64 `json:"minAge,omitempty"`
	// Lockdown answers from the cache only, never contacting the origin.
	Lockdown     bool  `json:"lockdown,omitempty"`
	StoreInCache *bool `json:"storeInCache,omitempty"`
	// Timeout in milliseconds, honoured when shorter than sift's own.
	Timeout *int64         `json:"timeout,omitempty"`
	Parsers []scrapeParser `json:"parsers,omitempty"`
	// OnlyMainContent false, IncludeTags and ExcludeTags choose what part
	// of an HTML page is read (the html extractor's page options).
	OnlyMainContent *bool    `json:"onlyMainContent,omitempty"`
	IncludeTags     []string `json:"includeTags,omitempty"`
	ExcludeTags     []string `json:"excludeTags,omitempty"`
	// RemoveBase64Images false keeps the images a page inlines as data:
	// URIs in the markdown and html, each within the html extractor's
	// bound; unset or true, each is its alt text, as Firecrawl's default.
	RemoveBase64Images *bool `json:"removeBase64Images,omitempty"`
	// JSONOptions are the json format's schema and prompt.
	JSONOptions *jsonOptions `json:"jsonOptions,omitempty"`
	// ChangeTrackingOptions are v1's changeTracking options, which a
	// v2 format object replaces.
	ChangeTrackingOptions *changeTrackingOptions `json:"changeTrackingOptions,omitempty"`
	// FormatOptions are what the other format objects ask for, read by
	// readFormatObjects (and kept so in a stored batch target).
	FormatOptions *formatOptions `json:"siftFormatOptions,omitempty"`
	Warnings      []string       `json:"siftWarnings,omitempty"`
	// SiftOptions are the extractor's own per-request options, as
	// /v1/fetch's options.
	SiftOptions map[string]json.RawMessage `json:"siftOptions,omitempty"`
}

// scrapeParser is a parser given as "pdf" or as {"type": "pdf", "maxPages": N}.
type scrapeParser struct {
	Type     string `json:"type"`
	MaxPages int    `json:"maxPages,omitempty"`
	// Mode is a PDF's ocr option (no other document's): fast reads the
	// text layer only (never), auto reads pages without one by OCR, ocr
	// reads every page by OCR (always).
	Mode string `json:"mode,omitempty"`
}

func (p *scrapeParser) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &p.Type); err == nil {
		return nil
	}
	var obj struct {
		Type     string `json:"type"`
		MaxPages int    `json:"maxPages"`
		Mode     string `json:"mode"`
	}
	if err := json.Unmarshal(b, &obj); err != nil || obj.Type == "" {
		return fmt.Errorf("a parser is a string or an object with a type (and maxPages)")
	}
	if obj.MaxPages < 0 {
		return fmt.Errorf("maxPages must be at least 1")
	}
	*p = scrapeParser(obj)
	return nil
}

// request is the chain's request for url under these options.
func (o *scrapeOptions) request(url, mode string) stages.Request {
	req := stages.Request{URL: url, Mode: mode, NoStore: o.StoreInCache != nil && !*o.StoreInCache, Question: o.question()}
	if o.MaxAge != nil {
		age, _ := httpapi.ClientDuration(*o.MaxAge, time.Millisecond, httpapi.MaxCacheAge)
		req.MaxAge = &age
	} else if slices.Contains(o.Formats, "changeTracking") {
		// A change is seen only at the origin: the cached copy is asked
		// for conditionally, and a 304 costs no body.
		fresh := time.Duration(0)
		req.MaxAge = &fresh
	}
	if o.MinAge != nil {
		age, _ := httpapi.ClientDuration(*o.MinAge, time.Millisecond, httpapi.MaxCacheAge)
		req.MinAge, req.CacheOnly = &age, true
	}
	req.CacheOnly = req.CacheOnly || o.Lockdown
	// check refused any siftOptions this could fail on.
	req.Options, req.StrictOptions, _ = service.PluginOptions("siftOptions", o.SiftOptions, o.fieldOptions())
	return req
}

// question is the question format's question, "" without one.
func (o *scrapeOptions) question() string {
	if o.FormatOptions == nil {
		return ""
	}
	return o.FormatOptions.Question
}

// fieldOptions are the extractor options that Firecrawl's own fields ask
// for: a PDF parser's maxPages, the part of an HTML page to read, its
// images (Firecrawl's markdown has them, so they are on unless siftOptions
// say images false) and whether its base64 images stay.
func (o *scrapeOptions) fieldOptions() map[string]string {
	opts := map[string]string{}
	for _, p := range o.Parsers {
		if p.Type == "pdf" && p.MaxPages > 0 {
			opts["max_pages"] = strconv.Itoa(p.MaxPages)
		}
		if how := pdfModes[p.Mode]; p.Type == "pdf" && how != "" {
			// Firecrawl's pdf parser reads PDFs alone: an image is
			// still read by OCR whatever the mode.
			opts[stages.OptionFor("application/pdf", "ocr")] = how
		}
	}
	o.pageOptions(opts)
	if _, own := o.SiftOptions[optImages]; !own {
		opts[optImages] = "true"
	}
	if o.keepsBase64Images() {
		opts[optBase64Images] = "true"
	}
	if slices.Contains(o.Formats, "html") {
		opts[sdk.OptionHTML] = "true"
	}
	return opts
}

// siftOptionFalse reports whether siftOptions give name as false.
func (o *scrapeOptions) siftOptionFalse(name string) bool {
	var v any
	if json.Unmarshal(o.SiftOptions[name], &v) != nil {
		return false
	}
	return v == false || v == "false"
}

// keepsBase64Images reports whether removeBase64Images is false.
func (o *scrapeOptions) keepsBase64Images() bool {
	return o.RemoveBase64Images != nil && !*o.RemoveBase64Images
}

// check validates the options and adds the warnings they call for.
func (o *scrapeOptions) check() *service.Error {
	if o.Timeout != nil && *o.Timeout < 1 {
		return badField("timeout", "want milliseconds, at least 1")
	}
	if o.MaxAge != nil && *o.MaxAge < 0 {
		return badField("maxAge", "want milliseconds, 0 or more (0: fetch fresh)")
	}
	if o.MinAge != nil && *o.MinAge < 0 {
		return badField("minAge", "want milliseconds, 0 or more")
	}
	var unknown []string
	for _, f := range o.Formats {
		if !knownFormats[f] {
			why, ok := formatWhy[f]
			if !ok {
				why = " (not a format sift produces)"
			}
			unknown = append(unknown, string(f)+why)
		}
	}
	if len(unknown) > 0 {
		// Here, once, so a batch's start answer names them too.
		o.Warnings = append(o.Warnings, "formats not supported by sift: "+strings.Join(unknown, ", "))
	}
	if ae := o.checkSelectors(); ae != nil {
		return ae
	}
	if o.keepsBase64Images() && o.siftOptionFalse(optImages) {
		o.Warnings = append(o.Warnings, "not applied: removeBase64Images false (siftOptions images false leaves every image out)")
	}
	if _, _, ae := service.PluginOptions("siftOptions", o.SiftOptions, o.fieldOptions()); ae != nil {
		return ae
	}
	if o.Parsers != nil && !slices.ContainsFunc(o.Parsers, func(p scrapeParser) bool { return p.Type == "pdf" }) {
		o.Warnings = append(o.Warnings, "not applied: parsers without pdf (sift always reads PDFs as text)")
	}
	for _, p := range o.Parsers {
		if p.Type != "pdf" {
			o.Warnings = append(o.Warnings, fmt.Sprintf("not applied: parser %q (sift knows pdf only)", p.Type))
		}
	}
	return nil
}

// scrapeFormat is a format given as "markdown" or as {"type": "markdown"}.
type scrapeFormat string

func (f *scrapeFormat) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = scrapeFormat(s)
		return nil
	}
	var obj struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &obj); err != nil || obj.Type == "" {
		return fmt.Errorf("a format is a string or an object with a type")
	}
	*f = scrapeFormat(obj.Type)
	return nil
}

// scrapeDoc is Firecrawl's Document, as much of it as sift fills.
type scrapeDoc struct {
	Markdown *string         `json:"markdown,omitempty"`
	HTML     *string         `json:"html,omitempty"`
	RawHTML  *string         `json:"rawHtml,omitempty"`
	Summary  *string         `json:"summary,omitempty"`
	Links    *[]string       `json:"links,omitempty"`
	Images   *[]string       `json:"images,omitempty"`
	JSON     json.RawMessage `json:"json,omitempty"`
	// Answer, Highlights, Attributes and ChangeTracking are the question,
	// highlights, attributes and changeTracking formats (addFormats).
	// Extract is v1's name for json, when a v1 request asked for it so.
	Extract        json.RawMessage    `json:"extract,omitempty"`
	Answer         *string            `json:"answer,omitempty"`
	Highlights     *string            `json:"highlights,omitempty"`
	Attributes     *[]attributeValues `json:"attributes,omitempty"`
	ChangeTracking *changeTracking    `json:"changeTracking,omitempty"`
	Metadata       scrapeMetadata     `json:"metadata"`
	Warning        string             `json:"warning,omitempty"`
}

type scrapeMetadata struct {
	Title       string     `json:"title,omitempty"`
	Description string     `json:"description,omitempty"`
	Language    string     `json:"language,omitempty"`
	NumPages    int        `json:"numPages,omitempty"`
	SourceURL   string     `json:"sourceURL"`
	URL         string     `json:"url"`
	StatusCode  int        `json:"statusCode"`
	ContentType string     `json:"contentType"`
	CacheState  string     `json:"cacheState"`
	CachedAt    string     `json:"cachedAt,omitempty"`
	Sift        siftFields `json:"sift"`

	OGTitle       string `json:"ogTitle,omitempty"`
	OGDescription string `json:"ogDescription,omitempty"`
	OGURL         string `json:"ogUrl,omitempty"`
	OGImage       string `json:"ogImage,omitempty"`
	OGSiteName    string `json:"ogSiteName,omitempty"`
	OGLocale      string `json:"ogLocale,omitempty"`
	Keywords      string `json:"keywords,omitempty"`
	Robots        string `json:"robots,omitempty"`
	PublishedTime string `json:"publishedTime,omitempty"`
	ModifiedTime  string `json:"modifiedTime,omitempty"`
	Favicon       string `json:"favicon,omitempty"`
	ScrapeID      string `json:"scrapeId"`
	CreditsUsed   int    `json:"creditsUsed"`
	ProxyUsed     string `json:"proxyUsed"`
	// Error is set when the origin answered 4xx or 5xx.
	Error string `json:"error,omitempty"`
	// Tags are the page's og:*, twitter:* and article:* meta tags by
	// name as written, as Firecrawl lists them beside its own fields.
	Tags map[string]string `json:"-"`
	// Schema is what the page's JSON-LD says (the extractor's schema_*
	// metadata), written beside the fields as the tags are.
	Schema map[string]string `json:"-"`
}

// MarshalJSON writes the fields with the meta tags beside them; a tag
// never replaces a field.
func (m scrapeMetadata) MarshalJSON() ([]byte, error) {
	type plain scrapeMetadata
	b, err := json.Marshal(plain(m))
	if err != nil || len(m.Tags) == 0 && len(m.Schema) == 0 {
		return b, err
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	for _, extra := range []map[string]string{m.Tags, m.Schema} {
		for k, v := range extra {
			if _, taken := out[k]; !taken {
				out[k] = v
			}
		}
	}
	return json.Marshal(out)
}

// fromPage fills the metadata Firecrawl reads from a page's head.
func (m *scrapeMetadata) fromPage(page pageInfo) {
	tag := page.Meta
	m.OGTitle, m.OGDescription, m.OGURL, m.OGImage = tag["og:title"], tag["og:description"], tag["og:url"], tag["og:image"]
	m.OGSiteName, m.OGLocale, m.Keywords, m.Robots = tag["og:site_name"], tag["og:locale"], tag["keywords"], tag["robots"]
	m.PublishedTime, m.ModifiedTime = tag["article:published_time"], tag["article:modified_time"]
	m.Favicon = page.Favicon
	// Firecrawl's title is the document's <title>; og:title only stands in
	// for a page without one.
	if page.Title != "" {
		m.Title, _ = invisible.Strip(page.Title)
	}
	if m.Title == "" {
		m.Title = m.OGTitle
	}
	// Firecrawl's description is <meta name="description">, og:description
	// standing in for a page without one (the extractor may prefer it).
	if d := tag["description"]; d != "" {
		m.Description = d
	}
	if m.Description == "" {
		m.Description = m.OGDescription
	}
	for name, v := range tag {
		if strings.HasPrefix(name, "og:") || strings.HasPrefix(name, "twitter:") || strings.HasPrefix(name, "article:") {
			if m.Tags == nil {
				m.Tags = map[string]string{}
			}
			m.Tags[name] = v
		}
	}
}

// schemaMetadata is the extractor's schema_* metadata (what the page's
// JSON-LD says of a product, recipe, event, …), without invisible
// characters, or nil.
func schemaMetadata(m map[string]string) map[string]string {
	var schema map[string]string
	for k, v := range m {
		if strings.HasPrefix(k, "schema_") {
			if schema == nil {
				schema = map[string]string{}
			}
			schema[k], _ = invisible.Strip(v)
		}
	}
	return schema
}

// shownWarnings are the Doc's warnings but the extract stage's cuts of
// what the answer does not show: its title and description come from the
// page's head when it has them, with cuts of their own (page.Cuts), and
// no other metadata of the extraction's is shown.
func shownWarnings(doc *stages.Doc, m scrapeMetadata, page pageInfo) []string {
	if doc.Extraction == nil || len(doc.Extraction.Cuts) == 0 {
		return append([]string{}, doc.Warnings...)
	}
	shown := map[string]bool{}
	if page.Title == "" && m.Title == doc.Extraction.Title {
		shown["title"] = true
	}
	if page.Meta["description"] == "" {
		shown["metadata:description"] = true
	}
	hidden := map[string]bool{}
	for what, w := range doc.Extraction.Cuts {
		if !shown[what] {
			hidden[w] = true
		}
	}
	var out []string
	for _, w := range doc.Warnings {
		if !hidden[w] {
			out = append(out, w)
		}
	}
	return out
}

type siftFields struct {
	Hash      string         `json:"hash"`
	FetchedAt string         `json:"fetchedAt"`
	Cached    bool           `json:"cached"`
	CachedAt  string         `json:"cachedAt,omitempty"`
	Untrusted bool           `json:"untrusted"`
	Tokens    map[string]int `json:"tokens"`
}

// formats sift can produce; the others Firecrawl knows are accepted and
// reported as unsupported in the document's warning.
var knownFormats = map[scrapeFormat]bool{"markdown": true, "html": true, "rawHtml": true, "summary": true, "links": true, "images": true, "json": true,
	"question": true, "query": true, "highlights": true, "attributes": true, "changeTracking": true}

// formatWhy says why sift does not produce a Firecrawl format; a name
// it does not list is not a format sift produces.
var formatWhy = map[scrapeFormat]string{
	"screenshot":          " (sift runs no browser: it renders no page to capture)",
	"screenshot@fullPage": " (sift runs no browser: it renders no page to capture)",
	"branding":            " (sift runs no browser: it computes no page's colours and fonts)",
	"audio":               " (sift transcribes no media)",
	"video":               " (sift transcribes no media)",
	"product":             ` (sift has no product reader: use {"type": "json", "schema": …} with the fields you need)`,
	"menu":                ` (sift has no menu reader: use {"type": "json", "schema": …} with the fields you need)`,
	"deterministicJson":   ` (use {"type": "json", "schema": …})`,
	"extract":             ` (Firecrawl v1's name: use {"type": "json", "schema": …})`,
}

func (a *API) handleScrape(w http.ResponseWriter, r *http.Request, c *service.Caller) {
	req, ae := decodeScrape(r)
	if ae != nil {
		WriteError(w, ae)
		return
	}
	rl := httpapi.LogOf(r.Context())
	rl.SetMode(scrapeMode(req))
	data, ae := a.scrapeTarget(r.Context(), c, req)
	if ae != nil {
		WriteError(w, ae)
		return
	}
	rl.Answer(data.Metadata.Sift.Cached, data.Metadata.Sift.Tokens["returned"], warningCount(data.Warning))
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "data": data})
}

// scrapeTarget is the Firecrawl pipeline for one URL: /v2/scrape and every
// target of a Firecrawl batch go through it.
func (a *API) scrapeTarget(ctx context.Context, c *service.Caller, req *scrapeRequest) (*scrapeDoc, *service.Error) {
	mode := scrapeMode(req)
	parent := ctx
	var timeout time.Duration
	if req.Timeout != nil {
		timeout, _ = httpapi.ClientDuration(*req.Timeout, time.Millisecond, httpapi.MaxRequestTimeout)
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	res, ae := a.svc.Run(ctx, c, req.request(req.URL, mode))
	if ae != nil {
		if req.Timeout != nil && ae.Class != errclass.Busy && errors.Is(ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil {
			// The caller's timeout fired, wherever the chain was.
			ae = service.ClassError(errclass.Timeout, fmt.Sprintf("no complete answer within the request's timeout of %s (timeout %d ms)",
				timeout, *req.Timeout))
		}
		return nil, cacheMissCode(req, ae)
	}
	data := scrapeAnswer(req, res)
	if w := timeoutWarning(req.Timeout, a.svc.FetchTimeout()); w != "" {
		data.Warning = joinWarnings(data.Warning, w)
	}
	if req.question() != "" && slices.Contains(req.Formats, "summary") {
		a.addSummary(ctx, c, req, &data)
	}
	if slices.Contains(req.Formats, "json") {
		a.addJSON(ctx, req, res, &data)
	}
	a.addFormats(ctx, c, req, res.Doc, &data)
	a.metrics.Tokens(c.Name, data.Metadata.Sift.Tokens["raw"], data.Metadata.Sift.Tokens["returned"])
	return &data, nil
}

// timeoutWarning names the cap a request's timeout (ms) is longer than:
// sift's own bound on a request, or the fetch stage's deadline, which a
// longer timeout does not lengthen; "" when it is within both.
func timeoutWarning(ms *int64, fetchTimeout time.Duration) string {
	if ms == nil {
		return ""
	}
	d, over := httpapi.ClientDuration(*ms, time.Millisecond, httpapi.MaxRequestTimeout)
	switch {
	case over && fetchTimeout > 0:
		return fmt.Sprintf("timeout %d ms capped at %s, the longest sift waits for a request, and at %s for the page's download: the fetch stage's timeout",
			*ms, httpapi.MaxRequestTimeout, fetchTimeout)
	case over:
		return fmt.Sprintf("timeout %d ms capped at %s, the longest sift waits for a request", *ms, httpapi.MaxRequestTimeout)
	case fetchTimeout > 0 && d > fetchTimeout:
		return fmt.Sprintf("timeout %d ms capped at %s for the page's download: the fetch stage's timeout, which a request's does not lengthen",
			*ms, fetchTimeout)
	}
	return ""
}

// addSummary is the summary of a scrape whose digest answered the question
// format's question: a digest of its own, without the question, on the
// Doc the first pass left (the cache answers it).
func (a *API) addSummary(ctx context.Context, c *service.Caller, req *scrapeRequest, data *scrapeDoc) {
	plain := *req
	plain.FormatOptions = nil
	res, ae := a.svc.Run(ctx, c, plain.request(req.URL, service.ModeDigest))
	if ae != nil {
		data.Warning = joinWarnings(data.Warning, "summary not produced: "+ae.Message)
		return
	}
	summary := res.Doc.Digest
	if summary == "" && res.Doc.Extraction != nil {
		summary, _ = sdk.Truncate(res.Doc.Extraction.Content, 8000)
		data.Warning = joinWarnings(data.Warning, "formats not fully supported by sift: summary (no digester configured: the clean text stands in)")
	}
	data.Summary = &summary
	data.Metadata.Sift.Tokens["returned"] += tokens.Count(summary)
}

// cacheMissCode gives a cache-only scrape's miss Firecrawl's code for it:
// lockdown's, else minAge's.
func cacheMissCode(req *scrapeRequest, ae *service.Error) *service.Error {
	switch {
	case ae.Class != errclass.NotFound:
		return ae
	case req.Lockdown:
		return withCode(ae, errclass.CodeLockdownMiss)
	case req.MinAge != nil:
		return withCode(ae, errclass.CodeNoCachedData)
	}
	return ae
}

// scrapeMode is the chain's mode for a Firecrawl scrape: a summary is a
// digest.
func scrapeMode(req *scrapeRequest) string {
	if slices.Contains(req.Formats, "summary") || req.question() != "" {
		return service.ModeDigest
	}
	return service.ModeClean
}

// warningCount counts the parts of a Firecrawl warning, which joins them
// with "; ".
func warningCount(warning string) int {
	if warning == "" {
		return 0
	}
	return strings.Count(warning, "; ") + 1
}

func decodeScrape(r *http.Request) (*scrapeRequest, *service.Error) {
	raw, err := httpapi.ReadBody(r)
	if err != nil {
		return nil, err
	}
	return decodeScrapeBody(raw, merge(scrapeFields, map[string]fieldRule{"url": {}}))
}

// decodeScrapeBody decodes and checks a scrape request under rules.
func decodeScrapeBody(raw []byte, rules map[string]fieldRule) (*scrapeRequest, *service.Error) {
	var req scrapeRequest
	warnings, ae := decodeFirecrawl(raw, &req, rules)
	if ae != nil {
		return nil, ae
	}
	req.Warnings = warnings
	if ae := req.check(); ae != nil {
		return nil, ae
	}
	if ae := req.readJSONFormat(raw); ae != nil {
		return nil, ae
	}
	if req.URL == "" {
		return nil, badRequest("url is required")
	}
	if msg := service.NoScheme(req.URL); msg != "" {
		return nil, badRequest(msg)
	}
	if len(req.Formats) == 0 {
		req.Formats = []scrapeFormat{"markdown"}
	}
	return &req, nil
}

// contentHTML is Firecrawl's html format: the clean content as HTML, which
// the extractor renders for a page. A document of another type (a DOCX, a
// feed) has its clean markdown rendered as HTML of the same structure; one
// whose text is not markdown (JSON) is kept whole in a <pre>, with a note.
func contentHTML(doc *stages.Doc) (string, string) {
	ex := doc.Extraction
	switch {
	case ex == nil:
		return "", "html (no clean content)"
	case ex.HTML != "" || strings.Contains(doc.MediaType(), "html"):
		return ex.HTML, ""
	case ex.Content == "":
		return "", ""
	case ex.Format == string(sdk.FormatMarkdown):
		if body, err := markdownHTML(ex.Content); err == nil {
			return body, ""
		}
	}
	return "<pre>" + html.EscapeString(ex.Content) + "</pre>", "html (this document is " + doc.MediaType() + ", not a page: its clean text in a <pre>)"
}

func scrapeAnswer(req *scrapeRequest, res *service.Result) scrapeDoc {
	doc := res.Doc
	resp := doc.Response
	out := scrapeDoc{Metadata: scrapeMetadata{
		SourceURL: req.URL, URL: resp.FinalURL, StatusCode: resp.Status, ContentType: mediatype.Normal(resp.ContentType),
		Sift: siftFields{Hash: service.BodyHash(resp), FetchedAt: res.FetchedAt.Format(time.RFC3339),
			Untrusted: true, Tokens: map[string]int{"raw": service.RawTokens(doc)}},
	}}
	out.Metadata.CacheState = "miss"
	if doc.Cached() {
		at := doc.CachedAt.UTC().Format(time.RFC3339)
		out.Metadata.CacheState, out.Metadata.CachedAt = "hit", at
		out.Metadata.Sift.Cached, out.Metadata.Sift.CachedAt, out.Metadata.Sift.FetchedAt = true, at, at
	}
	returned, rawStripped := 0, 0
	var unsupported []string
	var page pageInfo
	if strings.Contains(doc.MediaType(), "html") {
		page = pageOf(doc)
	} else if doc.Extraction != nil {
		// A document's links are its extractor's (a PDF's, a DOCX's).
		page.Links = slices.Clone(doc.Extraction.Links)
	}
	for _, f := range req.Formats {
		switch f {
		case "links":
			links := page.Links
			if links == nil {
				links = []string{}
			}
			out.Links = &links
		case "images":
			images := page.Images
			if images == nil {
				images = []string{}
			}
			out.Images = &images
		case "markdown":
			md := ""
			if doc.Extraction != nil {
				md = doc.Extraction.Content
			}
			out.Markdown = &md
			if doc.Extraction != nil {
				returned += service.CleanTokens(doc.Extraction)
			}
		case "summary":
			if req.question() != "" {
				continue // the digest answered the question: addSummary
			}
			summary := doc.Digest
			if summary == "" && doc.Extraction != nil {
				summary, _ = sdk.Truncate(doc.Extraction.Content, 8000)
				unsupported = append(unsupported, "summary (no digester configured: the clean text stands in)")
			}
			out.Summary = &summary
			returned += tokens.Count(summary)
		case "html":
			body, note := contentHTML(doc)
			out.HTML = &body
			if note != "" {
				unsupported = append(unsupported, note)
			}
			returned += tokens.Count(body)
		case "rawHtml":
			body := ""
			if service.IsText(doc) {
				body, rawStripped = service.RawText(doc)
				returned += service.RawTokens(doc)
			} else {
				unsupported = append(unsupported, "rawHtml (this document is "+doc.MediaType()+", not text: its bytes are not shown)")
			}
			out.RawHTML = &body
		}
	}
	out.Metadata.Sift.Tokens["returned"] = returned
	if doc.Extraction != nil {
		m := doc.Extraction.Metadata
		out.Metadata.Title, out.Metadata.Description, out.Metadata.Language = doc.Extraction.Title, m["description"], m["language"]
		out.Metadata.NumPages, _ = strconv.Atoi(m["pages"]) // PDFs
		out.Metadata.Schema = schemaMetadata(m)
	}
	out.Metadata.fromPage(page)
	out.Metadata.ScrapeID, out.Metadata.CreditsUsed, out.Metadata.ProxyUsed = newID(), 1, "basic"
	warnings := append(append(shownWarnings(doc, out.Metadata, page), req.Warnings...), page.Cuts...)
	if w := req.pageOptionsWarning(doc.MediaType()); w != "" {
		warnings = append(warnings, w)
	}
	if w := service.UnappliedWarning(doc, firecrawlFieldNames); w != "" {
		warnings = append(warnings, w)
	}
	if resp.Status >= 400 {
		out.Metadata.Error = fmt.Sprintf("the origin answered %d %s", resp.Status, http.StatusText(resp.Status))
		warnings = append(warnings, out.Metadata.Error+": the content is its error page")
	}
	if rawStripped > 0 {
		warnings = append(warnings, "the page as fetched: "+invisible.Warning(rawStripped))
	}
	if len(unsupported) > 0 {
		warnings = append(warnings, "formats not fully supported by sift: "+strings.Join(unsupported, ", "))
	}
	out.Warning = strings.Join(warnings, "; ")
	return out
}
