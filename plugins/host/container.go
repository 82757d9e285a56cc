package host

import (
	"context"
	"fmt"

	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// checkContainers refuses an extractor's container rules that cannot run,
// naming the rule, so a bad one fails at start rather than never matching.
func checkContainers(s *Spec) error {
	if s.Digester || len(s.Info.Containers) == 0 {
		return nil
	}
	if _, err := sdk.CompileContainerRules(s.Info.Containers); err != nil {
		return fmt.Errorf("container %w", err)
	}
	return nil
}

// containerRoutes are every extractor's container rules compiled into one
// set, with the extractor each rule sends a document to. An operator's own
// plugins come first, so on a tie the extension does not break, theirs
// wins, as on a media type.
type containerRoutes struct {
	set    *sdk.ContainerSet
	owners []containerOwner
}

type containerOwner struct {
	name string
	ex   stages.Extractor
}

// newContainerRoutes compiles the rules of specs (checked by Plan), with
// each spec's extractor as ex(i) gives it.
func newContainerRoutes(specs []*Spec, ex func(*Spec) stages.Extractor) containerRoutes {
	var rules []sdk.ContainerRule
	var owners []containerOwner
	for _, thirdParty := range []bool{true, false} {
		for _, s := range specs {
			if s.Digester || s.thirdParty() != thirdParty {
				continue
			}
			for _, r := range s.Info.Containers {
				rules = append(rules, r)
				owners = append(owners, containerOwner{name: s.Name, ex: ex(s)})
			}
		}
	}
	if len(rules) == 0 {
		return containerRoutes{}
	}
	set, err := sdk.CompileContainerRules(rules)
	if err != nil {
		// Plan checked every spec's rules; a rule failing here is a bug.
		panic(fmt.Sprintf("container rules checked by Plan do not compile: %v", err))
	}
	return containerRoutes{set: set, owners: owners}
}

// route returns the extractor whose rule claims a document of a generic
// media type, and the media type it recognised; ok is false when the type
// is not generic or no rule claims the document.
func (c containerRoutes) route(mediaType, docURL string, body []byte) (containerOwner, string, bool) {
	if c.set == nil || !sdk.IsGeneric(mediaType) {
		return containerOwner{}, "", false
	}
	i := c.set.Pick(c.set.Match(body), docURL)
	if i < 0 {
		return containerOwner{}, "", false
	}
	return c.owners[i], c.set.Rules()[i].MediaType, true
}

// recognized is an extractor given documents a container rule recognised:
// each request carries the recognised media type as its ContentType, so
// the plugin learns what the document is, not what it was served as.
type recognized struct {
	ex        stages.Extractor
	mediaType string
}

func (r recognized) request(req *sdk.ExtractRequest) *sdk.ExtractRequest {
	out := *req
	out.ContentType = r.mediaType
	return &out
}

// Extract runs the document as its recognised media type.
func (r recognized) Extract(ctx context.Context, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	return r.ex.Extract(ctx, r.request(req))
}

// ExtractFor keeps the extractor's shares (stages.SharedExtractor).
func (r recognized) ExtractFor(ctx context.Context, share string, req *sdk.ExtractRequest) (*sdk.ExtractResult, error) {
	return stages.ExtractFor(ctx, r.ex, share, r.request(req))
}

var _ stages.SharedExtractor = recognized{}
