// Package cache is the checkpoint stage: it snapshots the Doc at its
// position so later requests resume from there. This package holds its
// configuration; the store is not built yet.
package cache

import (
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/stages"
)

// Defaults for the cache block.
const (
	DefaultTTL    = 24 * time.Hour
	DefaultMaxTTL = 168 * time.Hour
)

type rawConfig struct {
	TTL    hcl.Expression `hcl:"ttl,optional"`
	MaxTTL hcl.Expression `hcl:"max_ttl,optional"`
}

// Kind registers the cache stage, the one kind that may repeat.
func Kind() stages.Kind {
	return stages.Kind{Name: "cache", Repeatable: true, New: New}
}

// New decodes and validates the cache block.
func New(body hcl.Body, _ stages.Deps) (stages.Stage, hcl.Diagnostics) {
	var raw rawConfig
	diags := gohcl.DecodeBody(body, nil, &raw)
	if diags.HasErrors() {
		return nil, diags
	}
	ttl, ds := config.Duration(raw.TTL, DefaultTTL)
	diags = append(diags, ds...)
	maxTTL, ds := config.Duration(raw.MaxTTL, DefaultMaxTTL)
	diags = append(diags, ds...)
	if !diags.HasErrors() && ttl > maxTTL {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "ttl above max_ttl",
			Detail: "the default ttl must not exceed max_ttl.", Subject: raw.TTL.Range().Ptr()})
	}
	return stages.Pending{Kind: "cache"}, diags
}
