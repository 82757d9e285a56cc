// Package guard is the stage that runs the guard (the top-level guard
// package) on every request, and decodes the guard block into its policy.
package guard

import (
	"context"
	"fmt"
	"net"
	"net/netip"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/stages"
)

// Config is the guard stage's decoded block.
type Config struct {
	AllowPorts []int
	AllowHosts []string
	AllowCIDRs []netip.Prefix
}

type rawConfig struct {
	AllowPorts hcl.Expression `hcl:"allow_ports,optional"`
	AllowHosts []string       `hcl:"allow_hosts,optional"`
	AllowCIDRs hcl.Expression `hcl:"allow_cidrs,optional"`
}

// Kind registers the guard stage. It always runs: a cached answer is still
// refused for a URL the guard blocks.
func Kind() stages.Kind {
	return stages.Kind{Name: "guard", AlwaysRun: true, New: New}
}

// Stage checks each request's URL and records what it vetted.
type Stage struct {
	checker stages.URLGuard
}

// New decodes and validates the guard block. The stage vets with the
// application's guard (deps.Guard: this block's policy, the configured
// resolver), the one fetch re-checks redirects with; without one, it builds
// its own on the system resolver.
func New(body hcl.Body, deps stages.Deps) (stages.Stage, hcl.Diagnostics) {
	cfg, diags := Decode(body)
	if deps.Guard != nil {
		return &Stage{checker: deps.Guard}, diags
	}
	return &Stage{checker: guard.NewChecker(cfg.Policy(), net.DefaultResolver)}, diags
}

// Run refuses the request's URL or records it, canonical, with the
// addresses fetch may dial.
func (s *Stage) Run(ctx context.Context, doc *stages.Doc) error {
	t, err := s.checker.Vet(ctx, doc.Request.URL)
	if err != nil {
		return err
	}
	doc.Target = t
	return nil
}

// Policy returns the policy the configuration describes.
func (c Config) Policy() *guard.Policy {
	return &guard.Policy{AllowPorts: c.AllowPorts, AllowHosts: c.AllowHosts, AllowCIDRs: c.AllowCIDRs}
}

var _ stages.Stage = (*Stage)(nil)

// Decode reads and checks a guard block, pointing each problem at its
// attribute.
func Decode(body hcl.Body) (Config, hcl.Diagnostics) {
	var raw rawConfig
	diags := gohcl.DecodeBody(body, nil, &raw)
	cfg := Config{AllowPorts: guard.DefaultPolicy().AllowPorts, AllowHosts: raw.AllowHosts}
	if diags.HasErrors() {
		return cfg, diags
	}
	if !isNull(raw.AllowPorts) {
		diags = append(diags, gohcl.DecodeExpression(raw.AllowPorts, nil, &cfg.AllowPorts)...)
		for _, p := range cfg.AllowPorts {
			if p < 1 || p > 65535 {
				diags = append(diags, attrError(raw.AllowPorts, "Invalid port", fmt.Sprintf("allow_ports holds %d; a port is 1–65535.", p)))
			}
		}
	}
	if !isNull(raw.AllowCIDRs) {
		var cidrs []string
		diags = append(diags, gohcl.DecodeExpression(raw.AllowCIDRs, nil, &cidrs)...)
		for _, c := range cidrs {
			prefix, err := netip.ParsePrefix(c)
			if err != nil {
				diags = append(diags, attrError(raw.AllowCIDRs, "Invalid CIDR", fmt.Sprintf("allow_cidrs holds %q: %v.", c, err)))
				continue
			}
			cfg.AllowCIDRs = append(cfg.AllowCIDRs, prefix)
		}
	}
	return cfg, diags
}

func isNull(expr hcl.Expression) bool {
	v, diags := expr.Value(nil)
	return !diags.HasErrors() && v.IsNull()
}

func attrError(expr hcl.Expression, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: expr.Range().Ptr()}
}
