package firecrawl

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"

	"github.com/siftd/sift/internal/invisible"
	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/digest"
	"github.com/siftd/sift/stages/extract"
	"github.com/siftd/sift/store"
	"github.com/siftd/sift/tokens"
)

// formatOptions are what the format objects other than json ask for:
// Firecrawl gives them in the format object ({"type": "question",
// "question": "…"}), where readFormatObjects finds them.
type formatOptions struct {
	// Question is the question format's question: data.answer answers it.
	Question string `json:"question,omitempty"`
	// Quote is a query format's prompt in directQuote mode: data.answer
	// holds the parts of the page, as written, most relevant to it.
	Quote string `json:"quote,omitempty"`
	// Highlights is the highlights format's query: data.highlights holds
	// the parts of the page most relevant to it.
	Highlights string `json:"highlights,omitempty"`
	// Attributes are the attributes format's selectors.
	Attributes []attributeSelector `json:"attributes,omitempty"`
	// ChangeTracking is the changeTracking format's options.
	ChangeTracking *changeTrackingOptions `json:"changeTracking,omitempty"`
}

// attributeSelector is one of the attributes format's selectors: the
// values of attribute on the elements selector matches.
type attributeSelector struct {
	Selector  string `json:"selector"`
	Attribute string `json:"attribute"`
}

// attributeValues is data.attributes' entry for one selector.
type attributeValues struct {
	Selector  string   `json:"selector"`
	Attribute string   `json:"attribute"`
	Values    []string `json:"values"`
}

// changeTrackingOptions are the changeTracking format's options (v2's
// format object, v1's changeTrackingOptions): its modes (git-diff is
// served) and the tag that scopes its history.
type changeTrackingOptions struct {
	Modes []string `json:"modes,omitempty"`
	Tag   string   `json:"tag,omitempty"`
}

// changeTracking is data.changeTracking.
type changeTracking struct {
	PreviousScrapeAt *string   `json:"previousScrapeAt"`
	ChangeStatus     string    `json:"changeStatus"`
	Visibility       string    `json:"visibility"`
	Diff             *lineDiff `json:"diff,omitempty"`
}

// Bounds of the format objects.
const (
	// maxQuestion bounds a question and a highlights query, as Firecrawl
	// does.
	maxQuestion = 10000
	// maxSelectors bounds the attributes format's selectors.
	maxSelectors = 100
	// maxAttributeValues bounds the values one selector returns.
	maxAttributeValues = 1000
	// highlightTokens is what the highlights format keeps of a page.
	highlightTokens = 800
)

// readFormatObjects takes the options of the question, highlights,
// attributes and changeTracking formats out of formats, the formats list
// as sent, and checks them: a format that needs an option and lacks it,
// or has it malformed, is a 400 that names it, as Firecrawl's own
// validation answers. A second format of a kind a scrape answers once
// (two questions, two highlights) is, as on Firecrawl, passed over for
// the first, and named in a warning; the attributes formats' selectors
// are all served.
func (o *scrapeOptions) readFormatObjects(formats []json.RawMessage) *service.Error {
	first := formatSlots{}
	// Only what the formats ask: a request's own siftFormatOptions is
	// an unknown field, named and ignored.
	o.FormatOptions = nil
	fo := &formatOptions{}
	if o.ChangeTrackingOptions != nil {
		fo.ChangeTracking = o.ChangeTrackingOptions
	}
	for i, raw := range formats {
		var obj struct {
			Type      string              `json:"type"`
			Question  *string             `json:"question"`
			Query     *string             `json:"query"`
			Selectors []attributeSelector `json:"selectors"`
			Modes     []string            `json:"modes"`
			Tag       *string             `json:"tag"`
			Prompt    *string             `json:"prompt"`
			Mode      string              `json:"mode"`
			Schema    json.RawMessage     `json:"schema"`
		}
		isObject := json.Unmarshal(raw, &obj) == nil
		if !isObject {
			_ = json.Unmarshal(raw, &obj.Type) // a string
		}
		field := func(name string) string { return fmt.Sprintf("formats[%d].%s", i, name) }
		switch obj.Type {
		case "question":
			q, ae := requiredText(field("question"), obj.Question, `{"type": "question", "question": "…"}`)
			if ae != nil {
				return ae
			}
			if o.takeSlot(first, "question", i, "question", q) {
				fo.Question = q
			}
		case "query":
			// Firecrawl's older form of question, the one firecrawl-mcp's
			// scrape tool offers (queryOptions: prompt, mode).
			q, ae := requiredText(field("prompt"), obj.Prompt, `{"type": "query", "prompt": "…", "mode": "freeform"}`)
			if ae != nil {
				return ae
			}
			switch obj.Mode {
			case "", "freeform":
				if o.takeSlot(first, "question", i, "query", q) {
					fo.Question = q
				}
			case "directQuote":
				if o.takeSlot(first, "directQuote query", i, "query", q) {
					fo.Quote = q
				}
			default:
				return badField(field("mode"), fmt.Sprintf("mode %q: want freeform or directQuote", obj.Mode))
			}
		case "highlights":
			q, ae := requiredText(field("query"), obj.Query, `{"type": "highlights", "query": "…"}`)
			if ae != nil {
				return ae
			}
			if o.takeSlot(first, "highlights", i, "highlights", q) {
				fo.Highlights = q
			}
		case "attributes":
			if ae := checkSelectors(field("selectors"), obj.Selectors); ae != nil {
				return ae
			}
			fo.Attributes = append(fo.Attributes, obj.Selectors...)
		case "changeTracking":
			if !slices.Contains(o.Formats, "markdown") {
				return badRequest("the changeTracking format requires the markdown format to be specified as well")
			}
			if !o.takeSlot(first, "changeTracking", i, "changeTracking", "") {
				continue
			}
			ct := fo.ChangeTracking
			if ct == nil || isObject {
				ct = &changeTrackingOptions{Modes: obj.Modes}
				if obj.Tag != nil {
					ct.Tag = *obj.Tag
				}
			}
			for _, m := range ct.Modes {
				switch m {
				case "git-diff":
				case "json":
					o.Warnings = append(o.Warnings, "not applied: changeTracking mode json (sift compares the markdown: use git-diff for the lines that changed)")
				default:
					return badField(field("modes"), fmt.Sprintf("mode %q: want git-diff or json", m))
				}
			}
			if obj.Prompt != nil || len(obj.Schema) > 0 {
				o.Warnings = append(o.Warnings, "not applied: changeTracking prompt and schema (they serve the json mode, which sift does not)")
			}
			fo.ChangeTracking = ct
		}
	}
	if fo.Question != "" || fo.Quote != "" || fo.Highlights != "" || fo.Attributes != nil || fo.ChangeTracking != nil {
		o.FormatOptions = fo
	}
	return nil
}

// formatSlots are the kinds of format a scrape answers once, each with the
// index of the format that answers it.
type formatSlots map[string]int

// takeSlot reports whether formats[i] (of type typ, asking text) is the
// first of its kind, and records it if so; a later one is named in a
// warning, with what it asked, and passed over.
func (o *scrapeOptions) takeSlot(slots formatSlots, kind string, i int, typ, text string) bool {
	at, taken := slots[kind]
	if !taken {
		slots[kind] = i
		return true
	}
	what := typ
	if text != "" {
		what += " " + strconv.Quote(shorten(text, 80))
	}
	o.Warnings = append(o.Warnings, fmt.Sprintf("not applied: formats[%d] (%s): a scrape answers one %s format, the first (formats[%d])",
		i, what, kind, at))
	return false
}

// shorten is s cut to at most n runes, with an ellipsis when cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// requiredText is a format's text option, which must be given, not
// empty and not over maxQuestion.
func requiredText(field string, v *string, shape string) (string, *service.Error) {
	switch {
	case v == nil || strings.TrimSpace(*v) == "":
		return "", badField(field, "required: the format is an object such as "+shape)
	case utf8.RuneCountInString(*v) > maxQuestion:
		return "", badField(field, fmt.Sprintf("at most %d characters", maxQuestion))
	}
	return *v, nil
}

// checkSelectors checks the attributes format's selectors: each a CSS
// selector that parses, with an attribute name.
func checkSelectors(field string, sels []attributeSelector) *service.Error {
	if len(sels) == 0 {
		return badField(field, `required: a list such as [{"selector": "a.story", "attribute": "href"}]`)
	}
	if len(sels) > maxSelectors {
		return badField(field, fmt.Sprintf("at most %d selectors", maxSelectors))
	}
	for i, s := range sels {
		if _, err := cascadia.ParseGroup(s.Selector); err != nil {
			return badField(fmt.Sprintf("%s[%d].selector", field, i), fmt.Sprintf("not a CSS selector: %v", err))
		}
		if strings.TrimSpace(s.Attribute) == "" {
			return badField(fmt.Sprintf("%s[%d].attribute", field, i), "required: the attribute whose values to return")
		}
	}
	return nil
}

// addFormats fills data's answer, highlights, attributes and
// changeTracking, as req asks, from the scrape's Doc; what it cannot do
// is a warning saying why.
func (a *API) addFormats(ctx context.Context, c *service.Caller, req *scrapeRequest, doc *stages.Doc, data *scrapeDoc) {
	fo := req.FormatOptions
	if fo == nil {
		return
	}
	warn := func(w string) { data.Warning = joinWarnings(data.Warning, w) }
	content := ""
	if doc.Extraction != nil {
		content = doc.Extraction.Content
	}
	if fo.Question != "" {
		answer, w := a.answer(ctx, doc, content, fo.Question)
		data.Answer = &answer
		data.Metadata.Sift.Tokens["returned"] += tokens.Count(answer)
		if w != "" {
			warn(w)
		}
	}
	if fo.Quote != "" && fo.Question == "" {
		sel := a.svc.Focus(ctx, content, fo.Quote, digest.FallbackTokens)
		data.Answer = &sel.Content
		data.Metadata.Sift.Tokens["returned"] += sel.Tokens
	}
	if fo.Highlights != "" {
		sel := a.svc.Focus(ctx, content, fo.Highlights, highlightTokens)
		data.Highlights = &sel.Content
		data.Metadata.Sift.Tokens["returned"] += sel.Tokens
		for _, w := range sel.Warnings {
			warn("highlights: " + w)
		}
	}
	if fo.Attributes != nil {
		values, w := attributesOf(doc, fo.Attributes)
		data.Attributes = &values
		if w != "" {
			warn(w)
		}
	}
	if fo.ChangeTracking != nil {
		ct, w := a.trackChange(ctx, c, doc, req, content)
		data.ChangeTracking = ct
		if w != "" {
			warn(w)
		}
	}
}

// answer is the question format's answer: the digest the chain made
// around the question (the digest stage's own fallback, with its warning,
// when the digester failed), or, with no digester to ask, the parts of the
// page most relevant to the question, with a warning that says so.
func (a *API) answer(ctx context.Context, doc *stages.Doc, content, question string) (string, string) {
	switch {
	case doc.Digest != "":
		return doc.Digest, ""
	case doc.Extraction == nil:
		return "", "question not answered: the document has no clean content to answer from"
	}
	parts := a.svc.Focus(ctx, content, question, digest.FallbackTokens).Content
	if skippedStage(doc, "digest") {
		return parts, "question answered without an LLM: the digest stage's content_types leave " + doc.MediaType() +
			" out, so the answer is the parts of the page most relevant to the question"
	}
	return parts, "question answered without an LLM: no digester is configured (a digester block and a digest stage), " +
		"so the answer is the parts of the page most relevant to the question"
}

// skippedStage reports whether the chain left stage out for the
// document's type (its content_types filter).
func skippedStage(doc *stages.Doc, stage string) bool {
	return slices.ContainsFunc(doc.Timings, func(t stages.Timing) bool { return t.Stage == stage && t.Skipped })
}

// attributesOf reads the attributes format from the page as fetched: for
// each selector, the attribute's values on the elements that have it, in
// page order, at most maxAttributeValues each.
func attributesOf(doc *stages.Doc, sels []attributeSelector) ([]attributeValues, string) {
	out := make([]attributeValues, len(sels))
	for i, s := range sels {
		out[i] = attributeValues{Selector: s.Selector, Attribute: s.Attribute, Values: []string{}}
	}
	if !strings.Contains(doc.MediaType(), "html") {
		return out, "attributes: the document is " + doc.MediaType() + ", not an HTML page: no elements to select"
	}
	page, err := goquery.NewDocumentFromReader(bytes.NewReader(doc.Response.Body))
	if err != nil {
		return out, "attributes: the page could not be parsed: " + err.Error()
	}
	var cut []string
	for i, s := range sels {
		sel, err := cascadia.Compile(s.Selector)
		if err != nil {
			continue // checked when the request was read
		}
		page.FindMatcher(sel).EachWithBreak(func(_ int, el *goquery.Selection) bool {
			v, ok := el.Attr(s.Attribute)
			if !ok {
				return true
			}
			if len(out[i].Values) == maxAttributeValues {
				cut = append(cut, s.Selector)
				return false
			}
			v, _ = extract.Bound("attribute", v, extract.MaxMetadataBytes)
			v, _ = invisible.Strip(v)
			out[i].Values = append(out[i].Values, v)
			return true
		})
	}
	if len(cut) > 0 {
		return out, fmt.Sprintf("attributes: the first %d values kept of %s", maxAttributeValues, strings.Join(cut, ", "))
	}
	return out, ""
}

// History keeps the last content a change-tracking scrape saw of each
// page (store.Store's page snapshots).
type History interface {
	// SwapPageSnapshot stores next and returns the snapshot it replaced.
	SwapPageSnapshot(ctx context.Context, next store.PageSnapshot) (*store.PageSnapshot, error)
}

// trackChange is the changeTracking format: this scrape's markdown
// compared with the one the previous change-tracking scrape of the page
// saw in the same scope, which it then replaces. The scope is the open
// callers together (one team, as a Firecrawl team shares its history),
// or a restricted caller alone (who learns nothing of others' scrapes),
// and the format's tag.
func (a *API) trackChange(ctx context.Context, c *service.Caller, doc *stages.Doc, req *scrapeRequest, content string) (*changeTracking, string) {
	if a.history == nil {
		return nil, "changeTracking not produced: sift has no store (no cache stage, and batch is disabled), so it keeps no snapshots to compare with"
	}
	ct := req.FormatOptions.ChangeTracking
	scope := "open"
	if c.Restricted {
		scope = "caller:" + c.Name
	}
	page := req.URL
	if doc.Target != nil {
		page = doc.Target.URL
	}
	key := sha256.Sum256(fmt.Appendf(nil, "%d:%s|%d:%s|%d:%s", len(scope), scope, len(ct.Tag), ct.Tag, len(page), page))
	sum := sha256.Sum256([]byte(content))
	now := time.Now().UTC()
	prev, err := a.history.SwapPageSnapshot(ctx, store.PageSnapshot{Key: hex.EncodeToString(key[:]), Hash: hex.EncodeToString(sum[:]),
		Content: content, Status: doc.Response.Status, ScrapedAt: now})
	if err != nil {
		return nil, "changeTracking not produced: the page snapshots could not be read: " + err.Error()
	}
	out := &changeTracking{ChangeStatus: "new", Visibility: "visible"}
	if prev == nil {
		return out, ""
	}
	at := prev.ScrapedAt.UTC().Format(time.RFC3339)
	out.PreviousScrapeAt = &at
	gone := doc.Response.Status == http.StatusNotFound || doc.Response.Status == http.StatusGone
	switch {
	case gone:
		out.ChangeStatus = "removed"
	case prev.Hash == hex.EncodeToString(sum[:]):
		out.ChangeStatus = "same"
	default:
		out.ChangeStatus = "changed"
	}
	if out.ChangeStatus != "changed" || !slices.Contains(ct.Modes, "git-diff") {
		return out, ""
	}
	if prev.Content == "" && prev.Hash != emptyHash {
		return out, fmt.Sprintf("changeTracking: no diff, the previous markdown was over %d KiB and is kept by its hash only", store.MaxSnapshotContent>>10)
	}
	if len(content) > store.MaxSnapshotContent {
		return out, fmt.Sprintf("changeTracking: no diff, the markdown is over %d KiB", store.MaxSnapshotContent>>10)
	}
	out.Diff = unifiedDiff(prev.Content, content)
	return out, ""
}

// emptyHash is the content address of empty content.
var emptyHash = func() string { s := sha256.Sum256(nil); return hex.EncodeToString(s[:]) }()
