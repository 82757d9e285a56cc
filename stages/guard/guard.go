// Package guard is the stage that refuses URLs sift must never fetch:
// anything in an odd form, disallowed schemes and ports, and every host
// that is or resolves to an address that is not global (ARCHITECTURE.md,
// "The guard", says why each rule is as strict as it is). It
// also provides the dialer that connects only to vetted addresses.
package guard

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/config"
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

// defaultPorts are the ports a URL may name unless the operator widens them.
func defaultPorts() []int { return []int{80, 443} }

// Kind registers the guard stage. It always runs: a cached answer is still
// refused for a URL the guard blocks.
func Kind() stages.Kind {
	return stages.Kind{Name: "guard", Config: rawConfig{}, AlwaysRun: true, New: New}
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
	return &Stage{checker: NewChecker(cfg.Policy(), net.DefaultResolver)}, diags
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

// ResolveTimeout bounds the DNS lookup of one host.
const ResolveTimeout = 5 * time.Second

// Policy returns the policy the configuration describes.
func (c Config) Policy() *Policy {
	return &Policy{AllowPorts: c.AllowPorts, AllowHosts: c.AllowHosts, AllowCIDRs: c.AllowCIDRs}
}

var _ stages.Stage = (*Stage)(nil)

// Decode reads and checks a guard block, pointing each problem at its
// attribute.
func Decode(body hcl.Body) (Config, hcl.Diagnostics) {
	var raw rawConfig
	diags := gohcl.DecodeBody(body, nil, &raw)
	cfg := Config{AllowPorts: defaultPorts()}
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
