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

// Config is the guard stage's block.
type Config struct {
	AllowPorts []int    `hcl:"allow_ports,optional"`
	AllowHosts []string `hcl:"allow_hosts,optional"`
	AllowCIDRs []string `hcl:"allow_cidrs,optional"`
}

// DefaultPorts are the ports a URL may name unless the operator widens them.
var defaultPorts = []int{80, 443}

// Kind registers the guard stage. It always runs: a cached answer is still
// refused for a URL the guard blocks.
func Kind() stages.Kind {
	return stages.Kind{Name: "guard", AlwaysRun: true, New: New}
}

// New decodes and validates the guard block.
func New(body hcl.Body, _ stages.Deps) (stages.Stage, hcl.Diagnostics) {
	cfg := Config{}
	diags := gohcl.DecodeBody(body, nil, &cfg)
	if cfg.AllowPorts == nil {
		cfg.AllowPorts = defaultPorts
	}
	rng := body.MissingItemRange()
	for _, p := range cfg.AllowPorts {
		if p < 1 || p > 65535 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid port",
				Detail: fmt.Sprintf("allow_ports holds %d; a port is 1–65535.", p), Subject: &rng})
		}
	}
	for _, c := range cfg.AllowCIDRs {
		if _, err := netip.ParsePrefix(c); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid CIDR",
				Detail: fmt.Sprintf("allow_cidrs holds %q: %v.", c, err), Subject: &rng})
		}
	}
	return stages.Pending{Kind: "guard"}, diags
}
