// Package digest is the stage that condenses clean content around the
// agent's question through a digester plugin. A digest never fails a
// fetch: when the digester is slow, busy, down or overflowing, the parts
// of the clean text most relevant to the question stand in, with a warning.
package digest

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/focus"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// FallbackTokens bounds the clean text returned in place of a digest.
const FallbackTokens = 2000

// DefaultDigester is the digester block a stage uses unless told.
const DefaultDigester = "llm"

type rawConfig struct {
	Digester *string `hcl:"digester,optional" type:"string" doc:"the digester block the stage uses (default \"llm\"); it must be declared"`
}

// Stage digests when the request asks for it (mode "digest").
type Stage struct {
	name      string
	digesters stages.DigesterSet
}

// kind is the stage's name in the configuration and in Doc.Outcomes.
const kind = "digest"

// Kind registers the digest stage; it needs clean content before it.
func Kind() stages.Kind {
	return stages.Kind{Name: kind, Config: rawConfig{}, After: []string{"extract"}, New: New}
}

// New decodes the digest block.
func New(body hcl.Body, deps stages.Deps) (stages.Stage, hcl.Diagnostics) {
	var raw rawConfig
	diags := gohcl.DecodeBody(body, nil, &raw)
	s := &Stage{name: DefaultDigester, digesters: deps.Digesters}
	if diags.HasErrors() {
		return s, diags
	}
	if raw.Digester != nil {
		s.name = *raw.Digester
	}
	// A digester no block declares is a mistake, not a digest that
	// quietly never runs: every request asking for one would get only a
	// warning.
	if _, ok := digester(deps.Digesters, s.name); ok {
		return s, diags
	}
	if raw.Digester != nil {
		return s, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown digester",
			Detail:  fmt.Sprintf("the digest stage names digester %q, and no digester block declares it.", s.name),
			Subject: digesterRange(body)})
	}
	return s, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No digester block",
		Detail: fmt.Sprintf("the digest stage uses digester %q, and no digester block declares it. Add one, for example:\n\ndigester %q {\n  endpoint = \"http://127.0.0.1:8080/v1\"\n  model    = \"qwen3-4b\"\n}",
			s.name, s.name),
		Subject: body.MissingItemRange().Ptr()})
}

// Run digests doc's clean content, or falls back to it.
func (s *Stage) Run(ctx context.Context, doc *stages.Doc) error {
	if doc.Request.Mode != "digest" || doc.Extraction == nil {
		return nil
	}
	d, _ := digester(s.digesters, s.name)
	if d == nil {
		return nil // the API says "digest not configured"
	}
	res, err := d.Digest(ctx, &sdk.DigestRequest{
		Content: doc.Extraction.Content, Question: doc.Request.Question,
		URL: doc.Response.FinalURL, Title: doc.Extraction.Title,
	})
	if err != nil {
		doc.Digest = Fallback(ctx, doc.Extraction.Content, doc.Request.Question)
		doc.Warn(FallbackWarning(err))
		doc.SetOutcome(kind, fallbackClass(err))
		return nil
	}
	doc.Digest = res.Digest
	for _, w := range res.Warnings {
		doc.Warn(w)
	}
	return nil
}

// digesterRange points at the digester attribute of the stage's block.
func digesterRange(body hcl.Body) *hcl.Range {
	content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "digester"}}})
	if a, ok := content.Attributes["digester"]; ok {
		return a.Range.Ptr()
	}
	return body.MissingItemRange().Ptr()
}

// digester looks name up in set, which may be nil.
func digester(set stages.DigesterSet, name string) (stages.Digester, bool) {
	if set == nil {
		return nil, false
	}
	return set.Digester(name)
}

// Fallback is what stands in for a failed digest: the parts of content
// most relevant to the question within FallbackTokens (the beginning, cut
// between parts, without a question).
func Fallback(ctx context.Context, content, question string) string {
	return focus.Select(ctx, content, question, FallbackTokens, focus.Options{}).Content
}

// FallbackWarning is the warning that says why a digest fell back to clean
// text: "digest fell back to clean: timeout|busy|unavailable|…".
func FallbackWarning(err error) string { return "digest fell back to clean: " + fallbackClass(err) }

// fallbackClass names a failed digest: the digester's class, or "failed".
func fallbackClass(err error) string {
	if de, ok := errors.AsType[*sdk.DocError](err); ok {
		return de.Class
	}
	return "failed"
}

var _ stages.Stage = (*Stage)(nil)
