// Package context is the stage that attaches what the agent's team already
// knows (from Honcho). This package registers the stage; the lookup itself
// is not built yet.
package context

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"

	"github.com/siftd/sift/stages"
)

// Kind registers the context stage.
func Kind() stages.Kind {
	return stages.Kind{Name: "context", New: New}
}

// New decodes the context block, which has no attributes of its own yet.
func New(body hcl.Body, _ stages.Deps) (stages.Stage, hcl.Diagnostics) {
	var cfg struct{}
	return stages.Pending{Kind: "context"}, gohcl.DecodeBody(body, nil, &cfg)
}
