package stages

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
)

// Chain is a validated, ordered list of stages.
type Chain struct {
	stages  []*bound
	flights flights
}

// bound is a stage with what the chain knows about it.
type bound struct {
	kind         Kind
	stage        Stage
	contentTypes []string
}

// Build constructs the chain the configuration lists. It reports every
// problem at once: each stage's own diagnostics, then the chain rules.
func Build(blocks []config.Stage, reg *Registry, deps Deps) (*Chain, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	chain := &Chain{}
	for i, b := range blocks {
		kind, ok := reg.Lookup(b.Kind)
		if !ok {
			diags = append(diags, unknownKind(b, reg))
			continue
		}
		deps.Before = kindsOf(blocks[:i])
		st, ds := kind.New(b.Body, deps)
		diags = append(diags, ds...)
		if st == nil || ds.HasErrors() {
			// Keep the position for the chain rules below.
			st = nil
		}
		if g, ok := st.(URLGuard); ok {
			deps.Guard = g // the guard of every stage after it
		}
		chain.stages = append(chain.stages, &bound{kind: kind, stage: st, contentTypes: b.ContentTypes})
	}
	diags = append(diags, checkRules(blocks, reg)...)
	if diags.HasErrors() {
		return nil, diags
	}
	return chain, diags
}

// Stage returns the first stage of kind, or nil when the chain has none:
// what other code needs of a block (the fetch limits, the guard policy, a
// cache budget) is read from its built stage, never decoded again.
func (c *Chain) Stage(kind string) Stage {
	for _, b := range c.stages {
		if b.kind.Name == kind {
			return b.stage
		}
	}
	return nil
}

// StagesOf returns every stage of kind, in chain order.
func (c *Chain) StagesOf(kind string) []Stage {
	var out []Stage
	for _, b := range c.stages {
		if b.kind.Name == kind {
			out = append(out, b.stage)
		}
	}
	return out
}

func kindsOf(blocks []config.Stage) []string {
	out := make([]string, len(blocks))
	for i, b := range blocks {
		out[i] = b.Kind
	}
	return out
}

func unknownKind(b config.Stage, reg *Registry) *hcl.Diagnostic {
	detail := fmt.Sprintf("There is no stage kind %q. The kinds are: %s.", b.Kind, strings.Join(reg.Names(), ", "))
	if s := nearest(b.Kind, reg.Names()); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", s)
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown stage kind", Detail: detail, Subject: b.DefRange.Ptr()}
}

// nearest returns the name closest to s, if it is close enough to be a typo.
func nearest(s string, names []string) string {
	best, bestDist := "", 3
	for _, n := range names {
		if d := levenshtein.Distance(s, n, nil); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// checkRules enforces the order the stages depend on, repetition, and where
// a content_types filter may stand.
func checkRules(blocks []config.Stage, reg *Registry) hcl.Diagnostics {
	var diags hcl.Diagnostics
	firstAt := map[string]int{}
	for i, b := range blocks {
		if _, seen := firstAt[b.Kind]; !seen {
			firstAt[b.Kind] = i
		}
	}
	for i, b := range blocks {
		kind, ok := reg.Lookup(b.Kind)
		if !ok {
			continue
		}
		if first := firstAt[b.Kind]; first != i && !kind.Repeatable {
			diags = append(diags, ruleError(b, "Duplicate stage",
				fmt.Sprintf("stage %q appears more than once; only \"cache\" may repeat.", b.Kind)))
		}
		for _, dep := range kind.After {
			if at, ok := firstAt[dep]; !ok || at > i {
				diags = append(diags, ruleError(b, "Stage out of order",
					fmt.Sprintf("stage %q needs the %q stage before it.", b.Kind, dep)))
			}
		}
		for _, dep := range kind.AfterIfPresent {
			if at, ok := firstAt[dep]; ok && at > i {
				diags = append(diags, ruleError(b, "Stage out of order",
					fmt.Sprintf("stage %q uses what the %q stage produces, so it must come after it.", b.Kind, dep)))
			}
		}
		if b.ContentTypes != nil {
			if at, ok := firstAt["fetch"]; !ok || at > i {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "content_types before fetch",
					Detail:  fmt.Sprintf("stage %q filters on content_types, which are only known after the \"fetch\" stage.", b.Kind),
					Subject: b.ContentTypesRange})
			}
		}
	}
	return diags
}

func ruleError(b config.Stage, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: b.DefRange.Ptr()}
}

// Names lists the chain's stage kinds in order.
func (c *Chain) Names() []string {
	out := make([]string, len(c.stages))
	for i, b := range c.stages {
		out[i] = b.kind.Name
	}
	return out
}

// Close releases every stage that holds resources.
func (c *Chain) Close(ctx context.Context) error {
	var errs []error
	for _, b := range c.stages {
		if cl, ok := b.stage.(Closer); ok {
			if err := cl.Close(ctx); err != nil {
				errs = append(errs, fmt.Errorf("close stage %s: %w", b.kind.Name, err))
			}
		}
	}
	return errors.Join(errs...)
}
