package service

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/internal/invisible"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/tokens"
)

// Result is what one pass through the chain produced.
type Result struct {
	Doc       *stages.Doc
	FetchedAt time.Time
}

// Run passes one request through the chain, and logs one line for it. The
// chain takes the gates only when the request goes to the origin: a cache
// hit, or a request sharing an identical one in flight, takes none.
func (s *Service) Run(ctx context.Context, c *Caller, req stages.Request) (*Result, *Error) {
	return s.pass(ctx, c, req, s.gate(c.Name, HostOf(req.URL)))
}

// RunHeld is Run for a request whose answer costs work of its own (a grep):
// it takes the caller's gate slots before the chain, cache hit or not, and
// keeps them until release is called, so that work stays inside the
// caller's share. Without work to hold for it is Run.
func (s *Service) RunHeld(ctx context.Context, c *Caller, req stages.Request, hold bool) (res *Result, release func(), ae *Error) {
	if !hold {
		res, ae = s.Run(ctx, c, req)
		return res, func() {}, ae
	}
	// A held request is refused at once rather than waiting: its work
	// would then run past the wait on top of it.
	free, busy := s.gates.Acquire(ctx, c.Name, HostOf(req.URL), false)
	if busy != nil {
		s.logRequest(ctx, c, s.logHost(c, req), busy.Status, nil, busy, 0)
		return nil, func() {}, busy
	}
	release = sync.OnceFunc(free)
	// The slots are held already: the chain's own gate admits at once.
	held := func(context.Context) (func(), error) { return func() {}, nil }
	if res, ae = s.pass(ctx, c, req, held); ae != nil {
		release()
		return nil, func() {}, ae
	}
	return res, release, nil
}

// pass runs the chain for one request with gate as its way to the origin.
func (s *Service) pass(ctx context.Context, c *Caller, req stages.Request, gate stages.Gate) (*Result, *Error) {
	start := s.now()
	poolCaller := c.Name
	if c.Batch {
		poolCaller = c.Name + "/batch"
	}
	req.Caller, req.Share, req.Workspace, req.Restricted, req.Gate = c.Name, poolCaller, c.Workspace, c.Restricted, gate
	doc := &stages.Doc{Request: req}
	err := s.chain.Run(ctx, doc)
	s.observe(c, doc, err)
	var ae *Error
	if err != nil {
		ae = ErrorOf(err)
	}
	s.logRequest(ctx, c, s.logHost(c, req), statusOf(ae), doc, ae, time.Since(start))
	if ae != nil {
		return nil, ae
	}
	if doc.Memo != nil {
		stripMemo(doc)
	} else {
		StripInvisible(doc)
	}
	return &Result{Doc: doc, FetchedAt: fetchedAt(doc, start)}, nil
}

// fetchedAt is when doc's content came from the origin: the fetch stage's
// time, which a cache snapshot keeps as its cached_at; the request's start
// when the response does not say.
func fetchedAt(doc *stages.Doc, start time.Time) time.Time {
	if doc.Response != nil && !doc.Response.FetchedAt.IsZero() {
		return doc.Response.FetchedAt.UTC()
	}
	return start.UTC()
}

// logHost is the host a request's log line names. Batch log lines never
// carry a target's host, for any caller: a batch is an agent's whole
// worklist, and its log would list it.
func (s *Service) logHost(c *Caller, req stages.Request) string {
	if c.Batch {
		return ""
	}
	return HostOf(req.URL)
}

// gate is the chain's way into the gates for caller's fetch of host.
func (s *Service) gate(callerName, host string) stages.Gate {
	return func(ctx context.Context) (func(), error) {
		release, busy := s.gates.Acquire(ctx, callerName, host, true)
		if busy != nil {
			return nil, busy
		}
		return release, nil
	}
}

// StripInvisible cleans what the chain made for the agent (the clean
// content, title, metadata, digest, context and warnings) of invisible and control
// characters, and warns when it removed any. Every answer built from a
// chain's run (fetch, scrape, batch targets, pages read for a search
// digest) passes here. The parts are replaced, not changed in place: a
// cache snapshot or a shared extraction may hold them.
func StripInvisible(doc *stages.Doc) {
	var c invisible.Counter
	if ex := doc.Extraction; ex != nil {
		clean := *ex
		clean.Content, clean.Title, clean.HTML = c.Strip(ex.Content), c.Strip(ex.Title), c.Strip(ex.HTML)
		if ex.Metadata != nil {
			clean.Metadata = make(map[string]string, len(ex.Metadata))
			for k, v := range ex.Metadata {
				clean.Metadata[k] = c.Strip(v)
			}
		}
		if clean.Content != ex.Content {
			clean.Tokens = 0 // counted again for what is returned
		}
		doc.Extraction = &clean
	}
	doc.Digest = c.Strip(doc.Digest)
	if len(doc.Context) > 0 {
		hits := make([]stages.ContextHit, len(doc.Context))
		for i, h := range doc.Context {
			h.Peer, h.Content = c.Strip(h.Peer), c.Strip(h.Content)
			hits[i] = h
		}
		doc.Context = hits
	}
	if len(doc.Warnings) > 0 {
		// A plugin's warnings may quote the document.
		warnings := make([]string, len(doc.Warnings))
		for i, w := range doc.Warnings {
			warnings[i] = c.Strip(w)
		}
		doc.Warnings = warnings
	}
	if w := c.Warning(); w != "" {
		doc.Warn(w)
	}
}

// observe records the time each stage took, the guard's refusals, the
// cache's hits and misses, the class of a failure, and how a digest or a
// context lookup ended.
func (s *Service) observe(c *Caller, doc *stages.Doc, err error) {
	for _, t := range doc.Timings {
		if !t.Skipped {
			s.metrics.Stage(t.Stage, t.Duration)
		}
	}
	var b *guard.Blocked
	if errors.As(err, &b) {
		s.metrics.GuardRefusal(b.Rule, c.Name)
	}
	if err != nil {
		s.metrics.FetchError(string(ErrorOf(err).Class))
	}
	if s.cached && doc.Target != nil && (err == nil || doc.Cached()) {
		s.metrics.CacheLookup(doc.Cached())
	}
	if result, ok := doc.Outcomes["revalidate"]; ok {
		s.metrics.CacheRevalidation(result)
	}
	if err == nil {
		s.observeOutcomes(doc)
	}
}

func statusOf(ae *Error) int {
	if ae == nil {
		return http.StatusOK
	}
	return ae.Status
}

// HostOf is the gate's key: the host as the guard canonicalises it, so
// "Pub.Example." and "pub.example" share one slot. A URL the guard cannot
// read keys on its host as written, lower-cased; the guard refuses it
// anyway.
func HostOf(raw string) string {
	if host, err := guard.CanonicalHost(raw); err == nil {
		return host
	}
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return strings.ToLower(u.Hostname())
	}
	return "?"
}

// logRequest records one pass through the chain: on the HTTP request's
// log line when there is one, else (a batch target) on a line of its own.
// Never a body or a key, and for a restricted caller not the host, the
// reason or the error either.
func (s *Service) logRequest(ctx context.Context, c *Caller, host string, status int, doc *stages.Doc, ae *Error, took time.Duration) {
	verdict, errText := "allow", ""
	if ae != nil {
		errText = ae.Message
		if ae.Class == errclass.Blocked {
			verdict = "block"
		}
	}
	size := 0
	if doc != nil && doc.Response != nil {
		size = len(doc.Response.Body)
	}
	if rec := recordOf(ctx); rec != nil && !c.Batch {
		rec.Fetched(host, verdict, size, errText)
		return
	}
	if c.Restricted {
		host, errText = "", ""
	}
	attrs := []slog.Attr{slog.String("caller", c.Name), slog.String("host", host), slog.Int("status", status),
		slog.String("guard", verdict), slog.Int64("ms", took.Milliseconds())}
	if size > 0 {
		attrs = append(attrs, slog.Int("bytes", size))
	}
	if doc != nil && doc.Extraction != nil {
		attrs = append(attrs, slog.Int("clean_tokens", CleanTokens(doc.Extraction)))
	}
	if errText != "" {
		attrs = append(attrs, slog.String("error", errText))
	}
	s.log.LogAttrs(ctx, slog.LevelInfo, "batch target", attrs...)
}

// BodyHash is the content address of a fetched body: the one fetch
// computed (and a cache snapshot kept), else computed here.
func BodyHash(resp *stages.Response) string {
	if resp.Hash != "" {
		return resp.Hash
	}
	return stages.BodyHash(resp.Body)
}

// Record is the log line of the request a run serves, when it has one
// (an HTTP request): the run fills in what it learned. A run without one
// (a batch target) logs a line of its own.
type Record interface {
	// Fetched records a pass through the chain: the host, the guard's
	// verdict, the body's size and the error, if any.
	Fetched(host, verdict string, bytes int, errText string)
}

type recordKey struct{}

// WithRecord is ctx carrying the log record of the request it serves.
func WithRecord(ctx context.Context, r Record) context.Context {
	return context.WithValue(ctx, recordKey{}, r)
}

func recordOf(ctx context.Context) Record {
	r, _ := ctx.Value(recordKey{}).(Record)
	return r
}

// CleanTokens is the clean content's token count, counted by the extract
// stage, or here for an older snapshot.
func CleanTokens(ex *stages.Extraction) int {
	if ex.Tokens == 0 && ex.Content != "" {
		ex.Tokens = tokens.Estimate(ex.Content)
	}
	return ex.Tokens
}
