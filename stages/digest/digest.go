// Package digest is the stage that condenses clean content around the
// agent's question through a digester plugin. This package registers the
// stage; the digesting itself is not built yet.
package digest

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/stages"
)

// Kind registers the digest stage; it needs clean content before it.
func Kind() stages.Kind {
	return stages.Kind{Name: "digest", After: []string{"extract"}, New: New}
}

// New decodes the digest block, which has no attributes of its own yet.
func New(body hcl.Body, _ stages.Deps) (stages.Stage, hcl.Diagnostics) {
	var cfg struct{}
	return stages.Pending{Kind: "digest"}, gohcl.DecodeBody(body, nil, &cfg)
}
