package service

import (
	"slices"
	"strings"

	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/digest"
	"github.com/siftd/sift/stages/workspace"
)

// observeOutcomes counts how the digest and the context lookup a request
// asked for ended, from what the stages told the agent.
func (s *Service) observeOutcomes(doc *stages.Doc) {
	if doc.Request.Mode == "digest" && doc.Extraction != nil {
		switch {
		case skipped(doc, "digest"):
			s.metrics.DigestFallback("skipped")
		default:
			for _, w := range doc.Warnings {
				if reason, ok := strings.CutPrefix(w, digest.FallbackPrefix); ok {
					s.metrics.DigestFallback(reason)
				}
			}
		}
	}
	if doc.Request.Context && doc.Extraction != nil && s.contextStage && !skipped(doc, "context") {
		s.metrics.ContextLookup(contextOutcome(doc.Warnings))
	}
}

// contextOutcome reads the context stage's warning: none is a lookup that
// answered.
func contextOutcome(warnings []string) string {
	for _, w := range warnings {
		switch {
		case w == workspace.WarnNotConfigured:
			return "not_configured"
		case w == workspace.WarnNoTerms:
			return "no_terms"
		case strings.HasPrefix(w, workspace.WarnUnavailable):
			switch strings.TrimPrefix(w, workspace.WarnUnavailable) {
			case "timeout":
				return "timeout"
			case workspace.ReasonError:
				return "error"
			default:
				return "unreachable"
			}
		}
	}
	return "ok"
}

// skipped reports whether the chain left stage out for the document's
// content type (its content_types filter).
func skipped(doc *stages.Doc, stage string) bool {
	return slices.ContainsFunc(doc.Timings, func(t stages.Timing) bool { return t.Stage == stage && t.Skipped })
}

// digestSkippedWarning says a digest was not made because the digest
// stage's content_types leave the page's type out: a different thing from
// no digester at all.
func digestSkippedWarning(mediaType string) string {
	return "digest skipped: the digest stage's content_types do not include " + mediaType + "; returning clean content"
}
