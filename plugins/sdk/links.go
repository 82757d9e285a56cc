package sdk

import (
	"net/url"
	"strings"
)

// MaxLinks bounds the links one result carries: the host keeps no more,
// and Links stops collecting there.
const MaxLinks = 10_000

// MaxLinkBytes bounds one link; a longer one is dropped, not cut, since a
// cut URL names another resource.
const MaxLinkBytes = 8 << 10

// Links collects a document's links for ExtractResult.Links: each made
// absolute against the document's URL, each once, in the order added, at
// most MaxLinks. A reference that is not a URL, a fragment of the document
// itself, or a scheme an agent cannot follow (javascript:, data:) is
// skipped. The zero value collects only references that are absolute
// already. Not safe for concurrent use.
type Links struct {
	base *url.URL
	seen map[string]struct{}
	list []string
	// Dropped counts the links past MaxLinks, for a warning.
	Dropped int
}

// NewLinks returns a collector resolving references against base, the
// document's URL ("" or a malformed one: only absolute references count).
func NewLinks(base string) *Links {
	l := &Links{}
	if u, err := url.Parse(base); err == nil && u.IsAbs() {
		l.base = u
	}
	return l
}

// Add resolves ref and keeps it if it is a new link; it returns the
// absolute form and whether ref is a link at all (even one kept before),
// so a caller can write the same URL into the content.
func (l *Links) Add(ref string) (string, bool) {
	abs, ok := Resolve(l.base, ref)
	if !ok {
		return "", false
	}
	if _, dup := l.seen[abs]; dup {
		return abs, true
	}
	if len(l.list) >= MaxLinks {
		l.Dropped++
		return abs, true
	}
	if l.seen == nil {
		l.seen = map[string]struct{}{}
	}
	l.seen[abs] = struct{}{}
	l.list = append(l.list, abs)
	return abs, true
}

// List returns the links kept, in order; nil when there are none.
func (l *Links) List() []string { return l.list }

// linkSchemes are the schemes of links an agent can follow or use.
var linkSchemes = map[string]bool{"http": true, "https": true, "mailto": true, "ftp": true}

// Resolve makes ref absolute against base (nil: ref must be absolute) and
// reports whether the result is a link worth keeping: a URL of a scheme
// an agent can follow, at most MaxLinkBytes, not merely a fragment of the
// document itself.
func Resolve(base *url.URL, ref string) (string, bool) {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.HasPrefix(ref, "#") || len(ref) > MaxLinkBytes {
		return "", false
	}
	u, err := url.Parse(ref)
	if err != nil {
		return "", false
	}
	if !u.IsAbs() {
		if base == nil {
			return "", false
		}
		u = base.ResolveReference(u)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if !linkSchemes[u.Scheme] || (u.Scheme != "mailto" && u.Host == "") {
		return "", false
	}
	abs := u.String()
	if len(abs) > MaxLinkBytes {
		return "", false
	}
	return abs, true
}
