package service

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/focus"
	"github.com/siftd/sift/internal/invisible"
	"github.com/siftd/sift/mediatype"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/tokens"
)

// FetchRequest is the body of POST /v1/fetch, and the request a batch
// target of the native API stores.
type FetchRequest struct {
	URL      string `json:"url"`
	Question string `json:"question"`
	Mode     string `json:"mode"`
	Context  bool   `json:"context"`
	JSONPath string `json:"json_path"`
	JQ       string `json:"jq"`
	Grep     string `json:"grep"`
	Pages    string `json:"pages"`
	Recover  bool   `json:"recover"`
	// Links false renders a page's links as their text.
	Links *bool `json:"links"`
	// MaxTokens bounds the answer: the parts most relevant to the
	// question, or the beginning cut at a part boundary.
	MaxTokens *int `json:"max_tokens"`
	// Fresh skips the cache's copy: the origin is asked again, and the
	// cache keeps the new answer (Firecrawl's maxAge 0).
	Fresh bool `json:"fresh"`
	// Options are the extractor's own per-request options, as its schema
	// declares them; an undeclared or ill-fitting one is a 400 bad_option.
	Options map[string]json.RawMessage `json:"options,omitempty"`
}

// MaxTokensLimit is the largest max_tokens a request may ask for.
const MaxTokensLimit = 1_000_000

// FetchAnswer is sift's native /v1/fetch answer (README, "Fetch through
// sift").
type FetchAnswer struct {
	Content   string            `json:"content"`
	Mode      string            `json:"mode"`
	Untrusted bool              `json:"untrusted"`
	Title     string            `json:"title,omitempty"`
	Metadata  map[string]string `json:"metadata,omitempty"`
	Source    Source            `json:"source"`
	// Context is what the caller's team already knows, when asked for.
	Context []stages.ContextHit `json:"context,omitempty"`
	Sizes   Sizes               `json:"sizes"`
	// Parts says how many of the page's parts max_tokens kept.
	Parts    *Parts   `json:"parts,omitempty"`
	Warnings []string `json:"warnings"`
	Hint     string   `json:"hint,omitempty"`

	// encoded is the answer as written, when it was kept beside its
	// snapshot (answerMemoName); such an answer is shared and never changed.
	encoded []byte
}

// Source says where an answer's content came from.
type Source struct {
	URL         string     `json:"url"`
	FinalURL    string     `json:"final_url"`
	Status      int        `json:"status"`
	ContentType string     `json:"content_type"`
	FetchedAt   time.Time  `json:"fetched_at"`
	Hash        string     `json:"hash"`
	Bytes       int        `json:"bytes"`
	Cached      bool       `json:"cached"`
	CachedAt    *time.Time `json:"cached_at,omitempty"`
	// Recovered is set when the content is an archived snapshot because the
	// origin failed.
	Recovered *Recovered `json:"recovered,omitempty"`
}

// Parts says how many of the page's parts max_tokens kept.
type Parts struct {
	Kept  int `json:"kept"`
	Total int `json:"total"`
}

// Sizes are an answer's token counts: the body's, the clean content's,
// and the answer's.
type Sizes struct {
	RawTokens      int `json:"raw_tokens"`
	CleanTokens    int `json:"clean_tokens"`
	ReturnedTokens int `json:"returned_tokens"`
}

// Modes of /v1/fetch.
const (
	ModeClean  = "clean"
	ModeRaw    = "raw"
	ModeDigest = "digest"
)

// Fetch is the pipeline for one target: the chain under the caller's
// gates, the archive when asked to recover, and the answer. /v1/fetch and
// every batch target go through it.
func (s *Service) Fetch(ctx context.Context, c *Caller, req *FetchRequest) (*FetchAnswer, *Error) {
	opts, strict, ae := PluginOptions("options", req.Options, req.options())
	if ae != nil {
		return nil, ae
	}
	request := stages.Request{URL: req.URL, Question: req.Question, Mode: req.Mode, Context: req.Context,
		Options: opts, StrictOptions: strict}
	if req.Fresh {
		request.MaxAge = new(time.Duration) // no cached copy is young enough
	}
	res, release, rec, ae := s.RunRecovering(ctx, c, request, req.Grep != "", req.Recover)
	// The answer, its grep included, is made while the slot of the
	// fetch it comes from is held.
	defer func() { release() }()
	if ae != nil {
		return nil, ae
	}
	memo, name := res.Doc.Memo, ""
	if memo != nil && rec.Recovered == nil && rec.Failed == "" {
		name = s.answerMemoName(req)
	}
	if name != "" {
		if v, ok := memo.Load(name); ok {
			out := v.(*FetchAnswer)
			s.metrics.Tokens(c.Name, out.Sizes.RawTokens, out.Sizes.ReturnedTokens)
			return out, nil
		}
	}
	out, ae := fetchAnswer(ctx, req, res, s.grepTimeout)
	if ae != nil {
		return nil, ae
	}
	if req.MaxTokens != nil && req.Mode != ModeRaw {
		s.focusAnswer(ctx, req, out)
	}
	if req.Context && !s.contextStage {
		out.Warnings = append(out.Warnings, "context not configured: the pipeline has no context stage")
	}
	s.metrics.Tokens(c.Name, out.Sizes.RawTokens, out.Sizes.ReturnedTokens)
	if rec.Recovered != nil {
		out.Source.URL, out.Source.Recovered = req.URL, rec.Recovered
		out.Warnings = append(out.Warnings, "the origin failed ("+rec.Recovered.Reason+"); this is the newest Wayback Machine snapshot")
	}
	if rec.Failed != "" {
		out.Warnings = append(out.Warnings, rec.Failed)
	}
	if name != "" {
		if enc, err := encodeAnswer(out); err == nil {
			out.encoded = enc
			memo.Store(name, out, int64(len(enc)+len(out.Content)))
		}
	}
	return out, nil
}

// Validate checks the fields and fills in the default mode.
func (req *FetchRequest) Validate() *Error {
	if req.URL == "" {
		return badRequest("url is required")
	}
	switch req.Mode {
	case "":
		req.Mode = ModeClean
	case ModeClean, ModeRaw, ModeDigest:
	default:
		return badRequest(fmt.Sprintf("mode %q: want clean, raw or digest", req.Mode))
	}
	if req.JSONPath != "" && req.JQ != "" {
		return badRequest("give json_path or jq, not both")
	}
	if _, _, ae := PluginOptions("options", req.Options, req.options()); ae != nil {
		return ae
	}
	if req.Grep != "" {
		if _, ae := compileGrep(req.Grep); ae != nil {
			return ae
		}
	}
	if n := req.MaxTokens; n != nil {
		switch {
		case *n < 1 || *n > MaxTokensLimit:
			return badRequest(fmt.Sprintf("max_tokens %d: want 1 to %d", *n, MaxTokensLimit))
		case req.Mode == ModeRaw:
			return badRequest("max_tokens does not apply to raw mode, which returns the body as it is")
		}
	}
	return nil
}

// focusAnswer keeps, within max_tokens, the parts of the content most
// relevant to the question (reranked by the search block's embedder when
// there is one), or the beginning cut at a part boundary.
func (s *Service) focusAnswer(ctx context.Context, req *FetchRequest, out *FetchAnswer) {
	var opts focus.Options
	if e := s.search.Embedder(); e != nil {
		opts.Embedder = e
	}
	sel := focus.Select(ctx, out.Content, req.Question, *req.MaxTokens, opts)
	if sel.Content == out.Content {
		// Within the budget by the count budgets are held to, which
		// returned_tokens then reports rather than the clean estimate.
		out.Sizes.ReturnedTokens = sel.Tokens
		return
	}
	out.Content = sel.Content
	out.Sizes.ReturnedTokens = sel.Tokens
	out.Parts = &Parts{Kept: sel.Kept, Total: sel.Total}
	out.Warnings = append(out.Warnings, sel.Warnings...)
}

// options are the per-request knobs the extractors read.
func (f *FetchRequest) options() map[string]string {
	opts := map[string]string{}
	for k, v := range map[string]string{"json_path": f.JSONPath, "jq": f.JQ, "pages": f.Pages} {
		if v != "" {
			opts[k] = v
		}
	}
	if f.Links != nil && !*f.Links {
		opts["links"] = "false"
	}
	return opts
}

func fetchAnswer(ctx context.Context, req *FetchRequest, res *Result, grepTimeout time.Duration) (*FetchAnswer, *Error) {
	doc := res.Doc
	resp := doc.Response
	out := &FetchAnswer{
		Mode: req.Mode, Untrusted: true, Warnings: append([]string{}, doc.Warnings...),
		Source: Source{URL: req.URL, FinalURL: resp.FinalURL, Status: resp.Status, ContentType: mediatype.Normal(resp.ContentType),
			FetchedAt: res.FetchedAt, Hash: BodyHash(resp), Bytes: len(resp.Body), Cached: doc.Cached()},
	}
	if doc.Cached() {
		at := doc.CachedAt.UTC()
		out.Source.CachedAt, out.Source.FetchedAt = &at, at
	}
	out.Sizes.RawTokens = RawTokens(resp)
	out.Context = doc.Context

	switch {
	case req.Mode == ModeRaw:
		if !isText(doc.MediaType()) {
			return nil, ClassError(errclass.Unsupported, "raw mode returns text types only, not "+doc.MediaType())
		}
		var n int
		out.Content, n = RawText(doc)
		if w := invisible.Warning(n); w != "" {
			out.Warnings = append(out.Warnings, w)
		}
	case doc.Extraction == nil && skipped(doc, "extract"):
		return nil, ClassError(errclass.Unsupported, "no extractor for "+doc.MediaType()+": the extract stage's content_types leave it out")
	case doc.Extraction == nil:
		return nil, ClassError(errclass.NotImplemented, "the pipeline has no extract stage")
	default:
		out.Content, out.Title, out.Metadata = doc.Extraction.Content, doc.Extraction.Title, doc.Extraction.Metadata
		out.Sizes.CleanTokens = CleanTokens(doc.Extraction)
		switch {
		case req.Mode == ModeDigest && doc.Digest != "":
			out.Content = doc.Digest
		case req.Mode == ModeDigest && skipped(doc, "digest"):
			out.Warnings = append(out.Warnings, digestSkippedWarning(doc.MediaType()))
		case req.Mode == ModeDigest:
			out.Warnings = append(out.Warnings, "digest not configured; returning clean content")
		}
		if w := UnappliedWarning(doc, nativeFieldNames); w != "" {
			out.Warnings = append(out.Warnings, w)
		}
		if looksLikeShell(doc, out.Content) {
			out.Hint = "browser"
			out.Warnings = append(out.Warnings, "the page is nearly empty without JavaScript; a browser may render it")
		}
	}
	if req.Grep != "" {
		if ae := grepAnswer(ctx, out, req.Grep, grepTimeout); ae != nil {
			return nil, ae
		}
	}
	out.Sizes.ReturnedTokens = out.Sizes.CleanTokens
	if doc.Extraction == nil || out.Content != doc.Extraction.Content {
		out.Sizes.ReturnedTokens = tokens.Count(out.Content)
	}
	return out, nil
}

func isText(mediaType string) bool {
	return strings.HasPrefix(mediaType, "text/") || strings.HasSuffix(mediaType, "json") || strings.HasSuffix(mediaType, "xml")
}

// looksLikeShell spots a page that is scripts and little text: what
// remains without JavaScript is too thin to be the page.
func looksLikeShell(doc *stages.Doc, content string) bool {
	if doc.MediaType() != "text/html" || hasWords(content, 30) {
		return false
	}
	return strings.Count(strings.ToLower(string(doc.Response.Body)), "<script") >= 1
}

// hasWords reports whether s has at least n words, reading only as far as
// the nth: every answer asks, and most have thousands.
func hasWords(s string, n int) bool {
	inWord := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			inWord = false
			continue
		}
		if !inWord {
			if n--; n == 0 {
				return true
			}
			inWord = true
		}
	}
	return false
}

// RawTokens is the fetched body's token count: counted at fetch and kept
// in cache snapshots; counted here only for a snapshot from before that.
func RawTokens(resp *stages.Response) int {
	if resp.Tokens == 0 && len(resp.Body) > 0 {
		resp.Tokens = tokens.EstimateBytes(resp.Body)
	}
	return resp.Tokens
}

// badRequest is an invalid request's error.
func badRequest(msg string) *Error { return ClassError(errclass.Invalid, msg) }

// Encoded is the answer as it is written, when it was kept beside its
// cache snapshot and encoded then; nil otherwise.
func (a *FetchAnswer) Encoded() []byte { return a.encoded }
