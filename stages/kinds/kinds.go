// Package kinds lists the stage kinds built into sift: the one place a
// new kind is registered.
package kinds

import (
	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/cache"
	"github.com/siftd/sift/stages/digest"
	"github.com/siftd/sift/stages/extract"
	"github.com/siftd/sift/stages/fetch"
	guardstage "github.com/siftd/sift/stages/guard"
	"github.com/siftd/sift/stages/workspace"
)

// Registry returns the built-in stage kinds.
func Registry() *stages.Registry {
	return stages.NewRegistry(
		guardstage.Kind(),
		fetch.Kind(),
		extract.Kind(),
		digest.Kind(),
		workspace.Kind(),
		cache.Kind(),
	)
}
