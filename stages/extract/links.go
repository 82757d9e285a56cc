package extract

import (
	"fmt"

	"github.com/siftd/sift/plugins/sdk"
)

// boundLinks keeps what a plugin reports as the document's links to the
// SDK's contract, since a plugin reads hostile documents: absolute URLs of
// a followable scheme, each once, in order, at most sdk.MaxLinks of at most
// sdk.MaxLinkBytes each. It returns a warning when links past the bound
// were dropped; links that are no URL are dropped without one.
func boundLinks(reported []string) ([]string, string) {
	if len(reported) == 0 {
		return nil, ""
	}
	seen := make(map[string]struct{}, min(len(reported), sdk.MaxLinks))
	out := make([]string, 0, min(len(reported), sdk.MaxLinks))
	over := 0
	for _, l := range reported {
		abs, ok := sdk.Resolve(nil, l)
		if !ok {
			continue
		}
		if _, dup := seen[abs]; dup {
			continue
		}
		if len(out) == sdk.MaxLinks {
			over++
			continue
		}
		seen[abs] = struct{}{}
		out = append(out, abs)
	}
	if over > 0 {
		return out, fmt.Sprintf("links cut at %d: %d more dropped", sdk.MaxLinks, over)
	}
	return out, ""
}
