package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/siftd/sift/internal/invisible"
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/guard"
)

// fetchResult is what one pass through the chain produced.
type fetchResult struct {
	doc       *stages.Doc
	fetchedAt time.Time
}

// run passes one request through the chain under the gates, and logs one
// line for it.
func (s *Server) run(ctx context.Context, c *caller, req stages.Request) (*fetchResult, *apiError) {
	start := s.now()
	host := hostOf(req.URL)
	// Batch log lines never carry a target's host (P6 §8). Pools share
	// their slots out by caller; batch work has a share of its own, so a
	// batch never takes the caller's interactive slot.
	logHost, poolCaller := host, c.name
	if fromBatch(ctx) {
		logHost, poolCaller = "", c.name+"/batch"
	}
	release, busy := s.gates.acquire(c.name, host)
	if busy != nil {
		s.logRequest(c, logHost, busy.Status, nil, busy, time.Since(start))
		return nil, busy
	}
	defer release()
	req.Caller, req.Workspace = c.name, c.workspace
	ctx = stages.WithCaller(ctx, poolCaller)
	doc := &stages.Doc{Request: req}
	err := s.chain.Run(ctx, doc)
	s.observe(doc, err)
	var ae *apiError
	if err != nil {
		ae = toAPIError(err)
		var se *stages.StorageError
		if errors.As(err, &se) { // the caller sees "storage unavailable"; the operator, why
			s.log.Error("storage failed", "err", se.Err)
		}
	}
	s.logRequest(c, logHost, statusOf(ae), doc, ae, time.Since(start))
	if ae != nil {
		return nil, ae
	}
	stripInvisible(doc)
	return &fetchResult{doc: doc, fetchedAt: start.UTC()}, nil
}

// stripInvisible cleans what the chain made for the agent (the clean
// content, title, metadata, digest and context) of invisible and control
// characters, and warns when it removed any. Every answer built from a
// chain's run (fetch, scrape, batch targets, pages read for a search
// digest) passes here. The parts are replaced, not changed in place: a
// cache snapshot or a shared extraction may hold them.
func stripInvisible(doc *stages.Doc) {
	var c invisible.Counter
	if ex := doc.Extraction; ex != nil {
		clean := *ex
		clean.Content, clean.Title = c.Strip(ex.Content), c.Strip(ex.Title)
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
	if w := c.Warning(); w != "" {
		doc.Warn(w)
	}
}

// observe records the guard's refusals and the cache's hits and misses.
func (s *Server) observe(doc *stages.Doc, err error) {
	var b *guard.Blocked
	if errors.As(err, &b) {
		s.metrics.GuardRefusal(b.Rule)
	}
	if s.cached && doc.Target != nil && (err == nil || doc.Cached()) {
		s.metrics.CacheLookup(doc.Cached())
	}
}

func statusOf(ae *apiError) int {
	if ae == nil {
		return http.StatusOK
	}
	return ae.Status
}

// hostOf is the gate's key: the URL's host as written, lower-cased. The
// guard, not this, decides what the host really is.
func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return strings.ToLower(u.Hostname())
	}
	return "?"
}

// logRequest writes one line per request: never a body or a key, and for a
// restricted caller not the host, the reason or the error either.
func (s *Server) logRequest(c *caller, host string, status int, doc *stages.Doc, ae *apiError, took time.Duration) {
	verdict, errText := "allow", ""
	if ae != nil {
		errText = ae.Message
		if ae.Class == "blocked" {
			verdict = "block"
		}
	}
	if c.restricted {
		host, errText = "", ""
	}
	attrs := []slog.Attr{slog.String("caller", c.name), slog.String("host", host), slog.Int("status", status),
		slog.String("guard", verdict), slog.Int64("ms", took.Milliseconds())}
	if doc != nil && doc.Response != nil {
		attrs = append(attrs, slog.Int("bytes", len(doc.Response.Body)))
	}
	if doc != nil && doc.Extraction != nil {
		attrs = append(attrs, slog.Int("tokens", cleanTokens(doc.Extraction)))
	}
	if errText != "" {
		attrs = append(attrs, slog.String("error", errText))
	}
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "request", attrs...)
}

// bodyHash is the content address of a fetched body.
func bodyHash(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(sum[:])
}
