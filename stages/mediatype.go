package stages

import "strings"

// MatchMediaType reports whether mediaType (already lower-cased, without
// parameters) matches pattern: an exact type ("text/html"), a structured
// suffix ("application/*+json" or "+json"), a wildcard subtype ("text/*") or
// "*/*".
func MatchMediaType(pattern, mediaType string) bool {
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
