package service

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/focus"
	"github.com/siftd/sift/internal/apiv1"
	"github.com/siftd/sift/internal/invisible"
	"github.com/siftd/sift/mediatype"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/tokens"
)

// The /v1 shapes are apiv1's; the service fills them.
type (
	FetchRequest = apiv1.FetchRequest
	FetchAnswer  = apiv1.FetchAnswer
	Source       = apiv1.Source
	Parts        = apiv1.Parts
	Sizes        = apiv1.Sizes
)

// Modes of /v1/fetch, and the largest max_tokens.
const (
	ModeClean      = apiv1.ModeClean
	ModeRaw        = apiv1.ModeRaw
	ModeDigest     = apiv1.ModeDigest
	MaxTokensLimit = apiv1.MaxTokensLimit
)

// Fetch is the pipeline for one target: the chain under the caller's
// gates, the archive when asked to recover, and the answer. /v1/fetch and
// every batch target go through it.
func (s *Service) Fetch(ctx context.Context, c *Caller, req *FetchRequest) (*FetchAnswer, *Error) {
	opts, strict, ae := PluginOptions("options", req.Options, fetchOptions(req))
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
			out.Encoded = enc
			memo.Store(name, out, int64(len(enc)+len(out.Content)))
		}
	}
	return out, nil
}

// ValidateFetch checks a /v1/fetch request's fields and fills in the
// default mode.
func ValidateFetch(req *FetchRequest) *Error {
	if req.URL == "" {
		return badRequest("url is required")
	}
	if msg := NoScheme(req.URL); msg != "" {
		return badRequest(msg)
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
	switch req.OCR {
	case "", "auto", "always", "never":
	default:
		return badRequest(fmt.Sprintf("ocr %q: want auto, always or never", req.OCR))
	}
	if _, _, ae := PluginOptions("options", req.Options, fetchOptions(req)); ae != nil {
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
	sel := s.Focus(ctx, out.Content, req.Question, *req.MaxTokens)
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

// Focus keeps the parts of content most relevant to question within
// maxTokens (focus.Select), reranked by the search block's embedder when
// there is one.
func (s *Service) Focus(ctx context.Context, content, question string, maxTokens int) focus.Result {
	var opts focus.Options
	if e := s.search.Embedder(); e != nil {
		opts.Embedder = e
	}
	return focus.Select(ctx, content, question, maxTokens, opts)
}

// NoScheme says what is wrong with a URL an agent sent without a scheme
// sift reads written as one ("example.com/page", "javascript:alert(1)",
// "https:example.com"), "" for any other: that is input to correct, not
// a refusal of the guard's, so it is answered as invalid, saying what to
// send. A URL with "://" is the guard's to judge, whatever its scheme.
func NoScheme(rawURL string) string {
	if strings.Contains(rawURL, "://") {
		return ""
	}
	scheme, rest, ok := strings.Cut(rawURL, ":")
	switch {
	case !ok || !isScheme(scheme) || startsWithDigit(rest):
		// No scheme, or a host and its port ("localhost:8080/x").
		return fmt.Sprintf("url %q has no scheme: send an absolute URL, such as https://%s", rawURL, strings.TrimLeft(rawURL, "/"))
	case strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https"):
		return fmt.Sprintf("url %q has no host after its scheme: send an absolute URL, such as %s://%s",
			rawURL, strings.ToLower(scheme), strings.TrimLeft(rest, "/"))
	}
	return fmt.Sprintf("url %q: scheme %q is not supported: send an http or https URL", rawURL, strings.ToLower(scheme))
}

// isScheme reports whether s has the form of a URL scheme (RFC 3986,
// 3.1): a letter, then letters, digits, "+", "-" and ".".
func isScheme(s string) bool {
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// startsWithDigit reports whether s begins with an ASCII digit: what
// follows the colon of a host and port.
func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// fetchOptions are the per-request knobs of f the extractors read.
func fetchOptions(f *FetchRequest) map[string]string {
	opts := map[string]string{}
	for k, v := range map[string]string{"json_path": f.JSONPath, "jq": f.JQ, "pages": f.Pages, "ocr": f.OCR} {
		if v != "" {
			opts[k] = v
		}
	}
	if f.Links != nil && !*f.Links {
		opts["links"] = "false"
	}
	if f.Images {
		opts["images"] = "true"
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
	out.Sizes.RawTokens = RawTokens(doc)
	out.Context = contextHits(doc.Context)

	switch {
	case req.Mode == ModeRaw:
		if !IsText(doc) {
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
	if req.Mode == ModeRaw || doc.Extraction == nil || out.Content != doc.Extraction.Content {
		out.Sizes.ReturnedTokens = tokens.Count(out.Content)
	}
	return out, nil
}

// IsText reports whether the fetched body is text that raw output may
// show: by its media type, or, served as bytes of no stated kind, by what
// its bytes are (a feed sent as application/octet-stream is text; a DOCX
// is not).
func IsText(doc *stages.Doc) bool {
	return isText(doc.MediaType()) || isText(mediatype.Of(mediatype.Sniff("", doc.Response.Body)))
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

// RawTokens is what reading the document as fetched costs an agent, the
// sizes' raw_tokens. A text document (HTML, JSON, XML, plain text) costs
// its body's tokens: counted at fetch and kept in cache snapshots, counted
// here only for a snapshot from before that. A binary one (a PDF, a scan,
// an image, an office file) has no text to read but the extractor's: it
// costs the tokens of the whole extracted text (clean_tokens), not its
// bytes counted as if they were text, which made a PDF of 1 MB "save"
// hundreds of thousands of tokens; 0 before it is extracted.
func RawTokens(doc *stages.Doc) int {
	if !IsText(doc) {
		if doc.Extraction == nil {
			return 0
		}
		return CleanTokens(doc.Extraction)
	}
	resp := doc.Response
	if resp.Tokens == 0 && len(resp.Body) > 0 {
		resp.Tokens = tokens.EstimateBytes(resp.Body)
	}
	return resp.Tokens
}

// badRequest is an invalid request's error.
func badRequest(msg string) *Error { return ClassError(errclass.Invalid, msg) }

// contextHits are the context stage's hits in the answer's shape.
func contextHits(hits []stages.ContextHit) []apiv1.ContextHit {
	if hits == nil {
		return nil
	}
	out := make([]apiv1.ContextHit, len(hits))
	for i, h := range hits {
		out[i] = apiv1.ContextHit{Kind: h.Kind, Peer: h.Peer, Content: h.Content, CreatedAt: h.CreatedAt}
	}
	return out
}
