package sdk

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
)

// SniffBytes is how much of the start of a document a SniffRule sees.
const SniffBytes = 8 << 10

// SniffRule claims documents served with a generic media type whose start
// shows they are the plugin's, such as an RSS feed served as text/xml.
//
// A document matches when its media type matches one of ContentTypes and
// every test the rule sets (RootElements, Pattern) holds on its first
// SniffBytes bytes; a rule sets at least one test. The host evaluates the
// rules itself, so sniffing costs no call to the plugin. A match sends that
// document to the plugin ahead of routing by media type; a document no rule
// matches is routed by its media type as usual.
type SniffRule struct {
	// ContentTypes are the generic media types sniffed: exact
	// ("application/xml") or patterns ("text/*").
	ContentTypes []string
	// RootElements, when set, are the local names of the XML root elements
	// claimed ("rss", "feed", "RDF"), compared exactly, as XML does. The
	// prolog (declaration, comments, doctype) is skipped.
	RootElements []string
	// Pattern, when set, is a regular expression in Go's RE2 syntax
	// matched against the first SniffBytes bytes: "(?i)^\\s*#EXTM3U".
	Pattern string
}

// Sniffer is a SniffRule ready to test documents.
type Sniffer struct {
	rule    SniffRule
	pattern *regexp.Regexp
}

// Compile checks the rule and prepares it: an error names what is wrong.
func (r SniffRule) Compile() (*Sniffer, error) {
	if len(r.ContentTypes) == 0 {
		return nil, errors.New("sniff rule lists no content types")
	}
	if len(r.RootElements) == 0 && r.Pattern == "" {
		return nil, errors.New("sniff rule sets neither root elements nor a pattern")
	}
	s := &Sniffer{rule: r}
	if r.Pattern != "" {
		re, err := regexp.Compile(r.Pattern)
		if err != nil {
			return nil, fmt.Errorf("sniff pattern: %w", err)
		}
		s.pattern = re
	}
	return s, nil
}

// Rule is the rule s was compiled from.
func (s *Sniffer) Rule() SniffRule { return s.rule }

// MatchContent reports whether the start of a document passes the rule's
// tests; only the first SniffBytes bytes of body are read. Whether the
// document's media type is one the rule sniffs is the caller's to check
// against Rule().ContentTypes.
func (s *Sniffer) MatchContent(body []byte) bool {
	head := body[:min(len(body), SniffBytes)]
	if s.pattern != nil && !s.pattern.Match(head) {
		return false
	}
	if len(s.rule.RootElements) > 0 {
		root, ok := xmlRoot(head)
		if !ok || !slices.Contains(s.rule.RootElements, root) {
			return false
		}
	}
	return true
}

// xmlRoot returns the local name of the first element of an XML document,
// skipping its prolog (declaration, processing instructions, comments,
// doctype); ok is false when head holds no element start before anything
// else. It scans rather than parses: it runs on every document of a
// sniffed type.
func xmlRoot(head []byte) (string, bool) {
	rest := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for {
		rest = bytes.TrimLeft(rest, " \t\r\n")
		var end []byte
		switch {
		case bytes.HasPrefix(rest, []byte("<?")):
			end = []byte("?>")
		case bytes.HasPrefix(rest, []byte("<!--")):
			end = []byte("-->")
		case bytes.HasPrefix(rest, []byte("<!")):
			// A doctype, whose internal subset may hold '>'.
			if open, gt := bytes.IndexByte(rest, '['), bytes.IndexByte(rest, '>'); open >= 0 && (gt < 0 || open < gt) {
				i := bytes.IndexByte(rest, ']')
				if i < 0 {
					return "", false
				}
				rest = rest[i:]
			}
			end = []byte(">")
		case bytes.HasPrefix(rest, []byte("<")):
			name := rest[1:]
			if i := bytes.IndexAny(name, " \t\r\n/>"); i >= 0 {
				name = name[:i]
			} else {
				return "", false // cut inside the name
			}
			if i := bytes.LastIndexByte(name, ':'); i >= 0 {
				name = name[i+1:]
			}
			return string(name), len(name) > 0
		default:
			return "", false
		}
		i := bytes.Index(rest, end)
		if i < 0 {
			return "", false
		}
		rest = rest[i+len(end):]
	}
}
