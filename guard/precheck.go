package guard

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// Target is a URL that passed the checks that need no resolution.
type Target struct {
	URL *url.URL
	// Host is the ASCII (A-label) host name, lower-cased, without a
	// trailing dot; for an IP literal, its canonical text.
	Host string
	Port int
	// IP is set when the host is an IP literal.
	IP netip.Addr
}

// idnaProfile maps a host as browsers and resolvers do (UTS 46), so the
// name that is classified is the name that would be looked up: "ⓛocalhost"
// is "localhost".
var idnaProfile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false))

// PreCheck applies every rule that needs no DNS: the scheme, the form of
// the URL, the port, the host's name or literal address, and the allow
// lists. Anything in a non-canonical form is refused rather than
// interpreted, because the next parser may read it differently.
func (p *Policy) PreCheck(raw string) (*Target, error) {
	authority, err := splitAuthority(raw)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, blocked("malformed URL")
	}
	scheme := strings.ToLower(u.Scheme)
	hostText, portText, hasPort, err := splitHostPort(authority)
	if err != nil {
		return nil, err
	}
	port, err := p.port(scheme, portText, hasPort)
	if err != nil {
		return nil, err
	}
	t := &Target{URL: u, Port: port}
	if err := p.checkHost(t, hostText); err != nil {
		return nil, err
	}
	// From here on the URL carries the host as it was checked.
	u.Scheme, u.Host = scheme, t.hostPort(hasPort)
	return t, nil
}

func (t *Target) hostPort(withPort bool) string {
	host := t.Host
	if t.IP.Is6() {
		host = "[" + host + "]"
	}
	if withPort {
		return host + ":" + strconv.Itoa(t.Port)
	}
	return host
}

// splitAuthority checks the raw text and returns the authority (between
// "//" and the path). It refuses what parsers disagree on: control
// characters and spaces, backslashes, a missing "//", userinfo.
func splitAuthority(raw string) (string, error) {
	if raw == "" {
		return "", blocked("empty URL")
	}
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c <= ' ' || c == 0x7f {
			return "", blocked("control character or space in URL")
		}
	}
	if strings.ContainsRune(raw, '\\') {
		return "", blocked("backslash in URL")
	}
	scheme, rest, ok := strings.Cut(raw, ":")
	if !ok {
		return "", blocked("no scheme")
	}
	switch strings.ToLower(scheme) {
	case "http", "https":
	default:
		return "", blocked("scheme %q not allowed", strings.ToLower(scheme))
	}
	if !strings.HasPrefix(rest, "//") || strings.HasPrefix(rest, "///") {
		return "", blocked("URL has no authority (want scheme://host/)")
	}
	authority := rest[2:]
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority = authority[:i]
	}
	if strings.Contains(authority, "@") {
		return "", blocked("userinfo in URL")
	}
	if authority == "" {
		return "", blocked("no host")
	}
	return authority, nil
}

// splitHostPort separates host and port from the raw authority.
func splitHostPort(authority string) (host, port string, hasPort bool, err error) {
	if strings.HasPrefix(authority, "[") {
		end := strings.IndexByte(authority, ']')
		if end < 0 {
			return "", "", false, blocked("unterminated IPv6 literal")
		}
		host, rest := authority[:end+1], authority[end+1:]
		switch {
		case rest == "":
			return host, "", false, nil
		case strings.HasPrefix(rest, ":"):
			return host, rest[1:], true, nil
		}
		return "", "", false, blocked("junk after IPv6 literal")
	}
	switch strings.Count(authority, ":") {
	case 0:
		return authority, "", false, nil
	case 1:
		host, port, _ := strings.Cut(authority, ":")
		return host, port, true, nil
	}
	return "", "", false, blocked("more than one ':' in host (IPv6 literals need brackets)")
}

// port checks the port's form and the allow list, and that http and https
// keep to their own default ports.
func (p *Policy) port(scheme, text string, present bool) (int, error) {
	port := 80
	if scheme == "https" {
		port = 443
	}
	if present {
		if !isCanonicalPort(text) {
			return 0, blocked("non-canonical port %q", text)
		}
		port, _ = strconv.Atoi(text)
	}
	if scheme == "http" && port == 443 || scheme == "https" && port == 80 {
		return 0, blocked("%s on port %d", scheme, port)
	}
	for _, allowed := range p.AllowPorts {
		if port == allowed {
			return port, nil
		}
	}
	return 0, blocked("port %d not allowed", port)
}

// isCanonicalPort accepts 1–65535 written in decimal without sign or
// leading zero.
func isCanonicalPort(s string) bool {
	if s == "" || len(s) > 5 || s[0] == '0' {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	n, _ := strconv.Atoi(s)
	return n <= 65535
}

// checkHost canonicalises the host and applies the allow lists, the
// address rules to a literal and the special-use rule to a name.
func (p *Policy) checkHost(t *Target, text string) error {
	host, ip, err := canonicalHost(text)
	if err != nil {
		return err
	}
	t.Host, t.IP = host, ip
	if len(p.AllowHosts) > 0 && !p.hostAllowed(host) {
		return blocked("host %s not in allow_hosts", host)
	}
	if ip.IsValid() {
		return p.checkAddr(ip)
	}
	if len(p.AllowHosts) == 0 && isSpecialUse(host) {
		return blocked("special-use host name %s", host)
	}
	return nil
}

// CanonicalHost returns rawURL's host as the guard checks it: an IP
// literal in its canonical text, a name mapped to lower-case ASCII (UTS 46)
// without its trailing dot. Whatever keys on a host (the per-host gates)
// keys on this, so two spellings of one host are one host. The error is a
// refusal when the URL's form alone is refused.
func CanonicalHost(rawURL string) (string, error) {
	authority, err := splitAuthority(rawURL)
	if err != nil {
		return "", err
	}
	hostText, _, _, err := splitHostPort(authority)
	if err != nil {
		return "", err
	}
	host, _, err := canonicalHost(hostText)
	return host, err
}

// canonicalHost reads a bracketed IPv6 literal, a dotted-quad literal or a
// name, refusing any other form.
func canonicalHost(text string) (string, netip.Addr, error) {
	if strings.HasPrefix(text, "[") {
		return literal6(text)
	}
	if strings.Contains(text, "%") {
		return "", netip.Addr{}, blocked("percent-encoding in host")
	}
	lower := strings.ToLower(text)
	mapped, err := idnaProfile.ToASCII(lower)
	if err != nil {
		return "", netip.Addr{}, blocked("invalid host name %q", text)
	}
	if looksNumeric(mapped) {
		// WHATWG and inet_aton read numeric hosts in many forms
		// (2130706433, 0x7f.1, 0177.0.0.1): only the canonical
		// dotted quad, written as such, is accepted.
		addr, err := netip.ParseAddr(mapped)
		if err != nil || !addr.Is4() || mapped != lower {
			return "", netip.Addr{}, blocked("non-canonical IPv4 address %q", text)
		}
		return mapped, addr, nil
	}
	name := strings.TrimSuffix(mapped, ".")
	if err := checkName(name); err != nil {
		return "", netip.Addr{}, err
	}
	return name, netip.Addr{}, nil
}

// literal6 reads a bracketed IPv6 literal.
func literal6(text string) (string, netip.Addr, error) {
	inner := text[1 : len(text)-1]
	if strings.Contains(inner, "%") {
		return "", netip.Addr{}, blocked("zone identifier in IPv6 literal")
	}
	addr, err := netip.ParseAddr(inner)
	if err != nil || !addr.Is6() {
		return "", netip.Addr{}, blocked("invalid IPv6 literal %s", text)
	}
	return addr.String(), addr, nil
}

// specialUseSuffixes are the names that never lead to a public site: they
// resolve to this machine or only inside a local network (RFC 6761
// localhost, RFC 6762 local, RFC 8375 home.arpa, the private-use internal
// TLD, and localdomain as resolvers' search domains use it).
var specialUseSuffixes = []string{"localhost", "localdomain", "local", "internal", "home.arpa"}

// isSpecialUse reports whether name is, or lies under, a special-use name.
func isSpecialUse(name string) bool {
	for _, s := range specialUseSuffixes {
		if name == s || strings.HasSuffix(name, "."+s) {
			return true
		}
	}
	return false
}

// looksNumeric reports whether the last label is a number, which makes the
// whole host an IPv4 address to URL parsers (WHATWG "ends in a number").
func looksNumeric(host string) bool {
	host = strings.TrimSuffix(host, ".")
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") {
		last = last[2:]
		return strings.Trim(last, "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}

// checkName enforces DNS name syntax on an A-label name.
func checkName(name string) error {
	if len(name) > 253 {
		return blocked("host name longer than 253 characters")
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 {
			return blocked("invalid label in host name %q", name)
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return blocked("invalid character in host name %q", name)
			}
		}
	}
	return nil
}
