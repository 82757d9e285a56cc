// Package guardstage (stages/guard) is the stage that runs the guard (the top-level guard
// package) on every request, and decodes the guard block into its policy.
package guardstage

import (
	"context"
	"fmt"
	"net"
	"net/netip"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/config"
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
	AllowPorts hcl.Expression `hcl:"allow_ports,optional" type:"list(number)" doc:"the ports allowed (default [80, 443])"`
	AllowHosts hcl.Expression `hcl:"allow_hosts,optional" type:"list(string)" doc:"when set, the only host names admitted, local names included; their addresses are still checked unless allow_cidrs admits them"`
	AllowCIDRs hcl.Expression `hcl:"allow_cidrs,optional" type:"list(string)" doc:"address ranges admitted although the address rules would refuse them"`
}

// Kind registers the guard stage. It always runs: a cached answer is still
// refused for a URL the guard blocks.
func Kind() stages.Kind {
	return stages.Kind{Name: "guard", Config: rawConfig{}, AlwaysRun: true, New: New}
}

// Stage checks each request's URL and records what it vetted. It is also
// the URL guard of the stages after it (stages.Build passes it on): fetch
// re-checks every redirect hop and dials through it.
type Stage struct {
	policy  *guard.Policy
	checker *guard.Checker
}

// New decodes and validates the guard block, and builds the checker of its
// policy on deps.Resolver (the system's when nil).
func New(body hcl.Body, deps stages.Deps) (stages.Stage, hcl.Diagnostics) {
	cfg, diags := Decode(body)
	var r guard.Resolver = net.DefaultResolver
	if deps.Resolver != nil {
		r = deps.Resolver
	}
	p := cfg.Policy()
	return &Stage{policy: p, checker: guard.NewChecker(p, r)}, diags
}

// Policy is the block's policy, for checks that do not run the chain (a
// batch target's pre-check at submit, `sift guard`).
func (s *Stage) Policy() *guard.Policy { return s.policy }

// Vet checks a URL fully and returns it canonical with the addresses that
// may be dialled.
func (s *Stage) Vet(ctx context.Context, rawURL string) (*stages.Target, error) {
	return s.checker.Vet(ctx, rawURL)
}

// Dial connects to one of the target's vetted addresses.
func (s *Stage) Dial(ctx context.Context, t *stages.Target) (net.Conn, error) {
	return s.checker.Dial(ctx, t)
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

var (
	_ stages.Stage    = (*Stage)(nil)
	_ stages.URLGuard = (*Stage)(nil)
)

// Decode reads and checks a guard block, pointing each problem at its
// attribute.
func Decode(body hcl.Body) (Config, hcl.Diagnostics) {
	var raw rawConfig
	diags := gohcl.DecodeBody(body, nil, &raw)
	cfg := Config{AllowPorts: guard.DefaultPolicy().AllowPorts}
	if diags.HasErrors() {
		return cfg, diags
	}
	var ds hcl.Diagnostics
	cfg.AllowHosts, ds = config.StringList(raw.AllowHosts, "allow_hosts")
	diags = append(diags, ds...)
	if !isNull(raw.AllowPorts) {
		diags = append(diags, gohcl.DecodeExpression(raw.AllowPorts, nil, &cfg.AllowPorts)...)
		for _, p := range cfg.AllowPorts {
			if p < 1 || p > 65535 {
				diags = append(diags, attrError(raw.AllowPorts, "Invalid port", fmt.Sprintf("allow_ports holds %d; a port is 1–65535.", p)))
			}
		}
	}
	if !isNull(raw.AllowCIDRs) {
		cidrs, ds := config.StringList(raw.AllowCIDRs, "allow_cidrs")
		diags = append(diags, ds...)
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
