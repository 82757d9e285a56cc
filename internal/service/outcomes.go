package service

import (
	"slices"

	"github.com/siftd/sift/stages"
)

// observeOutcomes counts how the digest and the context lookup a request
// asked for ended, as the stages recorded it.
func (s *Service) observeOutcomes(doc *stages.Doc) {
	if doc.Request.Mode == "digest" && doc.Extraction != nil {
		switch outcome, fellBack := doc.Outcomes["digest"]; {
		case skipped(doc, "digest"):
			s.metrics.DigestFallback("skipped")
		case fellBack:
			s.metrics.DigestFallback(outcome)
		}
	}
	if doc.Request.Context && doc.Extraction != nil && s.contextStage && !skipped(doc, "context") {
		if outcome, ok := doc.Outcomes["context"]; ok {
			s.metrics.ContextLookup(outcome)
		}
	}
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
