// Package workspace is the context stage, which attaches what the agent's
// team already knows: with `context: true`, it derives the page's key terms
// and searches the caller's workspace for them. Context is a courtesy: when the source is
// slow, down or unconfigured the fetch succeeds without it, with a warning.
package workspace

import (
	"context"
	"errors"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/stages"
)

// MaxHitBytes bounds each hit's content: context is a reminder, not a
// second page.
const MaxHitBytes = 600

// Kind registers the context stage; it needs clean content before it, and
// a digest, when the chain makes one, since the digest's terms are among
// the page's key terms.
func Kind() stages.Kind {
	return stages.Kind{Name: kind, Config: struct{}{}, After: []string{"extract"}, AfterIfPresent: []string{"digest"}, New: New}
}

// The context stage's warnings; WarnUnavailable is followed by why.
const (
	WarnNotConfigured = "context not configured"
	WarnNoTerms       = "context skipped: the page has no key terms"
	WarnUnavailable   = "context unavailable: "
)

// kind is the stage's name in the configuration and in Doc.Outcomes.
const kind = "context"

// Stage searches the caller's workspace when the request asks for context.
type Stage struct {
	source stages.ContextSource
}

// New decodes the context stage block, which has no attributes: the
// source is the file's `context` block.
func New(body hcl.Body, deps stages.Deps) (stages.Stage, hcl.Diagnostics) {
	var cfg struct{}
	return &Stage{source: deps.Context}, gohcl.DecodeBody(body, nil, &cfg)
}

// Run attaches the hits for the page's key terms, or a warning.
func (s *Stage) Run(ctx context.Context, doc *stages.Doc) error {
	if !doc.Request.Context || doc.Extraction == nil {
		return nil
	}
	if s.source == nil {
		doc.Warn(WarnNotConfigured)
		doc.SetOutcome(kind, "not_configured")
		return nil
	}
	terms := keyTerms(doc.Extraction.Title, doc.Digest, doc.Extraction.Content)
	if len(terms) == 0 {
		doc.Warn(WarnNoTerms)
		doc.SetOutcome(kind, "no_terms")
		return nil
	}
	hits, err := s.source.Search(ctx, doc.Request.Workspace, strings.Join(terms, " "))
	if err != nil {
		outcome, why := failure(ctx, err)
		doc.Warn(WarnUnavailable + why)
		doc.SetOutcome(kind, outcome)
		return nil
	}
	doc.SetOutcome(kind, "ok")
	for i := range hits {
		hits[i].Content = trim(hits[i].Content, MaxHitBytes)
	}
	doc.Context = hits
	return nil
}

// failure names a failed lookup: its outcome for the metrics, and its
// reason for the agent, without the source's address.
func failure(ctx context.Context, err error) (outcome, reason string) {
	var se interface{ HTTPStatus() int }
	switch {
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil || isTimeout(err):
		return "timeout", "timeout"
	case errors.As(err, &se):
		return "error", "the context source answered an error"
	default:
		return "unreachable", "the context source is unreachable"
	}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// trim cuts s to at most n bytes on a word boundary, marking the cut.
func trim(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	cut := cutRunes(s, n-len("…"))
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

var _ stages.Stage = (*Stage)(nil)
