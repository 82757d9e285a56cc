package guard

import "slices"

// refusalFormats are the formats of every refusal sift makes, in this
// package and through Refuse elsewhere: their rules (ruleOf) are the
// label values of sift_guard_refusals_total, which start at zero so an
// alert sees the first refusal. TestRulesNameEveryRefusal keeps the list
// whole.
var refusalFormats = []string{
	"malformed URL", "empty URL", "control character or space in URL", "backslash in URL",
	"no scheme", "scheme %q not allowed", "URL has no authority (want scheme://host/)",
	"userinfo in URL", "no host", "unterminated IPv6 literal", "junk after IPv6 literal",
	"more than one ':' in host (IPv6 literals need brackets)", "non-canonical port %q",
	"%s on port %d", "port %d not allowed", "host %s not in allow_hosts", "special-use host name %s",
	"percent-encoding in host", "invalid host name %q", "non-canonical IPv4 address %q",
	"zone identifier in IPv6 literal", "invalid IPv6 literal %s", "host name longer than 253 characters",
	"invalid label in host name %q", "invalid character in host name %q",
	"unparsable socket address %q", "socket address %q is not an IP",
	// stages/fetch, on a redirect.
	"redirect Location with a backslash", "redirect from https to http",
}

// Rules lists every rule a refusal can name (Blocked.Rule): the checks of
// a URL and a socket, and each kind of address the registry refuses.
func Rules() []string {
	var out []string
	for _, f := range refusalFormats {
		out = append(out, ruleOf(f))
	}
	out = append(out, "address with a zone", "invalid address", "ISATAP address")
	for _, r := range registry {
		if !r.global {
			out = append(out, r.name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
