package host

import (
	"fmt"
	"strings"

	"github.com/siftd/sift/mediatype"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/stages"
)

// compileSniff prepares the sniff rules an extractor announces, so that
// routing a document only runs them; a rule that cannot run is an error
// naming it.
func compileSniff(s *Spec) error {
	s.sniffers = nil
	if s.Digester {
		return nil
	}
	for i, r := range s.Info.Sniff {
		for _, ct := range r.ContentTypes {
			if typ, sub, ok := strings.Cut(ct, "/"); !ok || typ == "" || sub == "" {
				return fmt.Errorf("sniff rule %d: %q is not a media type or a pattern of one", i+1, ct)
			}
		}
		sn, err := r.Compile()
		if err != nil {
			return fmt.Errorf("sniff rule %d: %w", i+1, err)
		}
		s.sniffers = append(s.sniffers, sn)
	}
	return nil
}

// sniffRoute is one extractor's sniff rule among a host's routes.
type sniffRoute struct {
	name    string
	sniffer *sdk.Sniffer
	ex      stages.Extractor
}

// sniffs reports whether a rule claims a document of mediaType starting
// with body.
func sniffs(sn *sdk.Sniffer, mediaType string, body []byte) bool {
	for _, ct := range sn.Rule().ContentTypes {
		if mediatype.Match(ct, mediaType) {
			return sn.MatchContent(body)
		}
	}
	return false
}

// RouteDocument is Route for one document: an extractor's sniff rule that
// claims the document (its media type and its first bytes) takes it, the
// first such rule in the order of the configuration; a document no rule
// claims is routed by its media type.
func (h *Host) RouteDocument(mediaType string, body []byte) (string, stages.Extractor, bool) {
	for _, r := range h.sniffs {
		if sniffs(r.sniffer, mediaType, body) {
			return r.name, r.ex, true
		}
	}
	return h.Route(mediaType)
}

// RouteSpecDocument is RouteSpec for one document, by RouteDocument's
// precedence.
func RouteSpecDocument(specs []Spec, mediaType string, body []byte) (string, bool) {
	for _, s := range specs {
		for _, sn := range s.sniffers {
			if sniffs(sn, mediaType, body) {
				return s.Name, true
			}
		}
	}
	return RouteSpec(specs, mediaType)
}
