// Package guard is the stage that refuses URLs sift must never fetch:
// internal addresses, odd forms, disallowed ports. This package holds its
// configuration; the checks themselves are not built yet.
package guard

import (
	"fmt"
	"net/netip"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

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

// defaultPorts are the ports a URL may name unless the operator widens them.
func defaultPorts() []int { return []int{80, 443} }

// Kind registers the guard stage. It always runs: a cached answer is still
// refused for a URL the guard blocks.
func Kind() stages.Kind {
	return stages.Kind{Name: "guard", AlwaysRun: true, New: New}
}

// New decodes and validates the guard block.
func New(body hcl.Body, _ stages.Deps) (stages.Stage, hcl.Diagnostics) {
	_, diags := Decode(body)
	return stages.Pending{Kind: "guard"}, diags
}

// Decode reads and checks a guard block, pointing each problem at its
// attribute.
func Decode(body hcl.Body) (Config, hcl.Diagnostics) {
	var raw rawConfig
	diags := gohcl.DecodeBody(body, nil, &raw)
	cfg := Config{AllowPorts: defaultPorts(), AllowHosts: raw.AllowHosts}
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
