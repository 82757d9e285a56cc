package host

import (
	"fmt"
	"net/url"
	"slices"
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
	name     string
	sniffer  *sdk.Sniffer
	ex       stages.Extractor
	external bool
}

// addSniff adds r to the host's sniff rules: an operator's external
// plugin's rules before every built-in's, as an external plugin wins a
// media type on a tie (Route), so a configured feed plugin takes the
// feeds the built-in one would sniff.
func addSniff(rules []sniffRoute, r sniffRoute) []sniffRoute {
	if !r.external {
		return append(rules, r)
	}
	i := 0
	for i < len(rules) && rules[i].external {
		i++
	}
	return slices.Insert(rules, i, r)
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

// RouteDocument is Route for one document at docURL: an extractor's sniff
// rule that claims the document (its media type and its first bytes)
// takes it, an external plugin's rule before a built-in's and otherwise the
// first in the order of the configuration; then,
// for a generic media type, a container rule that recognises it (the
// URL's extension breaking a tie), whose extractor gets the document as
// the media type recognised; a document no rule claims is routed by its
// media type. A document of a generic type that no container rule claims
// is routed as the type its bytes (or its URL's extension) show, as one
// served with no type at all is (mediatype.Sniff): a feed or a CSV served
// as application/octet-stream is still a feed or a CSV.
func (h *Host) RouteDocument(mediaType, docURL string, body []byte) (string, stages.Extractor, bool) {
	if name, ex, ok := h.routeDocument(mediaType, docURL, body); ok || !sdk.IsGeneric(mediaType) {
		return name, ex, ok
	}
	detected := mediatype.Sniff(urlPath(docURL), body)
	if sdk.IsGeneric(mediatype.Of(detected)) {
		return "", nil, false
	}
	name, ex, ok := h.routeDocument(mediatype.Of(detected), docURL, body)
	if !ok {
		return "", nil, false
	}
	return name, recognized{ex: ex, mediaType: detected}, true
}

func (h *Host) routeDocument(mediaType, docURL string, body []byte) (string, stages.Extractor, bool) {
	for _, r := range h.sniffs {
		if sniffs(r.sniffer, mediaType, body) {
			return r.name, r.ex, true
		}
	}
	if owner, recognised, ok := h.contains.route(mediaType, docURL, body); ok {
		return owner.name, recognized{ex: owner.ex, mediaType: recognised}, true
	}
	return h.Route(mediaType)
}

// RouteSpecDocument is RouteSpec for one document, by RouteDocument's
// precedence.
func RouteSpecDocument(specs []Spec, mediaType, docURL string, body []byte) (string, bool) {
	if name, ok := routeSpecDocument(specs, mediaType, docURL, body); ok || !sdk.IsGeneric(mediaType) {
		return name, ok
	}
	detected := mediatype.Of(mediatype.Sniff(urlPath(docURL), body))
	if sdk.IsGeneric(detected) {
		return "", false
	}
	return routeSpecDocument(specs, detected, docURL, body)
}

func routeSpecDocument(specs []Spec, mediaType, docURL string, body []byte) (string, bool) {
	for _, external := range []bool{true, false} {
		for _, s := range specs {
			for _, sn := range s.sniffers {
				if s.thirdParty() == external && sniffs(sn, mediaType, body) {
					return s.Name, true
				}
			}
		}
	}
	ptrs := make([]*Spec, len(specs))
	for i := range specs {
		ptrs[i] = &specs[i]
	}
	if owner, _, ok := newContainerRoutes(ptrs, func(*Spec) stages.Extractor { return nil }).route(mediaType, docURL, body); ok {
		return owner.name, true
	}
	return RouteSpec(specs, mediaType)
}

// urlPath is the path of docURL, for its extension; "" when it does not
// parse.
func urlPath(docURL string) string {
	u, err := url.Parse(docURL)
	if err != nil {
		return ""
	}
	return u.Path
}
