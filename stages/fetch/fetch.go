// Package fetch is the stage that downloads the resource through the
// guard's vetted dialer. This package holds its configuration; the fetching
// itself is not built yet.
package fetch

import (
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/stages"
)

// Defaults for the fetch block.
const (
	DefaultTimeout = 20 * time.Second
	DefaultMaxBody = 5 << 20
)

// Config is the fetch stage's decoded block.
type Config struct {
	Timeout time.Duration
	MaxBody int64
}

type rawConfig struct {
	Timeout hcl.Expression `hcl:"timeout,optional"`
	MaxBody hcl.Expression `hcl:"max_body,optional"`
}

// Kind registers the fetch stage; it needs the guard before it.
func Kind() stages.Kind {
	return stages.Kind{Name: "fetch", After: []string{"guard"}, New: New}
}

// New decodes and validates the fetch block.
func New(body hcl.Body, _ stages.Deps) (stages.Stage, hcl.Diagnostics) {
	_, diags := Decode(body)
	return stages.Pending{Kind: "fetch"}, diags
}

// Decode reads a fetch block; the plugin host sizes its messages from
// MaxBody.
func Decode(body hcl.Body) (Config, hcl.Diagnostics) {
	var raw rawConfig
	diags := gohcl.DecodeBody(body, nil, &raw)
	if diags.HasErrors() {
		return Config{Timeout: DefaultTimeout, MaxBody: DefaultMaxBody}, diags
	}
	var cfg Config
	var ds hcl.Diagnostics
	cfg.Timeout, ds = config.Duration(raw.Timeout, DefaultTimeout)
	diags = append(diags, ds...)
	cfg.MaxBody, ds = config.Size(raw.MaxBody, DefaultMaxBody)
	return cfg, append(diags, ds...)
}
