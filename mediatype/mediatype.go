// Package mediatype reads and matches media types: the type of a
// Content-Type value, the value an answer reports, and the patterns
// (exact, "text/*", "+json") that stage filters and plugin routing match.
package mediatype

import (
	"mime"
	"regexp"
	"strings"
)

// Of strips parameters from a Content-Type value and lower-cases it.
func Of(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(contentType, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// Match reports whether mediaType (already lower-cased, without
// parameters) matches pattern: an exact type ("text/html"), a structured
// suffix ("application/*+json" or "+json"), a wildcard subtype ("text/*") or
// "*/*".
func Match(pattern, mediaType string) bool {
	pattern = strings.ToLower(strings.TrimSpace(pattern))
	switch {
	case pattern == mediaType || pattern == "*/*" || pattern == "*":
		return true
	case strings.HasPrefix(pattern, "+"):
		return strings.HasSuffix(mediaType, pattern)
	case strings.HasSuffix(pattern, "/*"):
		return strings.HasPrefix(mediaType, strings.TrimSuffix(pattern, "*"))
	}
	if typ, suffix, ok := strings.Cut(pattern, "/*+"); ok {
		return strings.HasPrefix(mediaType, typ+"/") && strings.HasSuffix(mediaType, "+"+suffix)
	}
	return false
}

// Specificity ranks how closely pattern matches: exact 3, structured suffix
// 2, wildcard 1. Routing prefers the most specific match.
func Specificity(pattern string) int {
	switch {
	case pattern == "*/*" || pattern == "*":
		return 0
	case strings.Contains(pattern, "+") && strings.Contains(pattern, "*") || strings.HasPrefix(pattern, "+"):
		return 2
	case strings.HasSuffix(pattern, "/*"):
		return 1
	}
	return 3
}

// Longest media type and charset Normal keeps; longer ones are
// not real types.
const (
	maxMediaType = 127
	maxCharset   = 40
)

var (
	mediaTypeSyntax = regexp.MustCompile(`^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$`)
	charsetSyntax   = regexp.MustCompile(`^[a-z0-9][a-z0-9._:+-]*$`)
)

// Normal is the Content-Type value an answer reports: the media
// type, lower-cased, and its charset, nothing else. The origin chose the
// header, and the agent reads the answer, so no other parameter (nor any
// text dressed up as one) is passed on. A value that is not a media type
// is "".
func Normal(contentType string) string {
	mt := Of(contentType)
	if len(mt) > maxMediaType || !mediaTypeSyntax.MatchString(mt) {
		return ""
	}
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return mt
	}
	cs := strings.ToLower(params["charset"])
	if cs == "" || len(cs) > maxCharset || !charsetSyntax.MatchString(cs) {
		return mt
	}
	return mt + "; charset=" + cs
}
