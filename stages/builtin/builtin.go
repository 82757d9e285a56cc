// Package builtin lists the stage kinds built into sift: the one place a
// new kind is registered.
package builtin

import (
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/cache"
	siftcontext "github.com/siftd/sift/stages/context"
	"github.com/siftd/sift/stages/digest"
	"github.com/siftd/sift/stages/extract"
	"github.com/siftd/sift/stages/fetch"
	"github.com/siftd/sift/stages/guard"
)

// Registry returns the built-in stage kinds.
func Registry() *stages.Registry {
	return stages.NewRegistry(
		guard.Kind(),
		fetch.Kind(),
		extract.Kind(),
		digest.Kind(),
		siftcontext.Kind(),
		cache.Kind(),
	)
}
