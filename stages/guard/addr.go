package guard

import "net/netip"

// A prefix sift never connects to, and the reason a refusal gives.
type blockedRange struct {
	prefix netip.Prefix
	reason string
}

func ranges(reason string, cidrs ...string) []blockedRange {
	out := make([]blockedRange, len(cidrs))
	for i, c := range cidrs {
		out[i] = blockedRange{netip.MustParsePrefix(c), reason}
	}
	return out
}

// nonGlobal lists every range the guard refuses. IPv6 ranges that embed an
// IPv4 address are refused whole, whatever the embedded address: they are
// never how a public site is reached, and a gateway would reach the
// embedded address for us.
var nonGlobal = concat(
	ranges("unspecified address", "0.0.0.0/8", "::/128"),
	ranges("loopback address", "127.0.0.0/8", "::1/128"),
	ranges("private address", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"),
	ranges("shared address space (CGNAT)", "100.64.0.0/10"),
	ranges("link-local address", "169.254.0.0/16", "fe80::/10"),
	ranges("IETF protocol assignment", "192.0.0.0/24", "2001::/23"),
	ranges("documentation address", "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32", "3fff::/20"),
	ranges("6to4 relay address", "192.88.99.0/24"),
	ranges("benchmarking address", "198.18.0.0/15"),
	ranges("multicast address", "224.0.0.0/4", "ff00::/8"),
	ranges("reserved address", "240.0.0.0/4"),
	ranges("IPv4-mapped address", "::ffff:0:0/96"),
	ranges("IPv4-compatible address", "::/96"),
	ranges("NAT64 address", "64:ff9b::/96", "64:ff9b:1::/48"),
	ranges("discard-only address", "100::/64"),
	ranges("6to4 address", "2002::/16"),
	ranges("unique local address", "fc00::/7"),
	ranges("site-local address", "fec0::/10"),
)

func concat(lists ...[]blockedRange) []blockedRange {
	var out []blockedRange
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// classify returns why addr is not a global address sift may connect to,
// or "" when it is. Teredo (2001::/32) falls in the IETF block; ISATAP
// interface identifiers embed an IPv4 address in any prefix.
func classify(addr netip.Addr) string {
	if addr.Zone() != "" {
		return "address with a zone"
	}
	for _, r := range nonGlobal {
		if r.prefix.Contains(addr) {
			return r.reason
		}
	}
	if addr.Is6() && isISATAP(addr) {
		return "ISATAP address"
	}
	return ""
}

// isISATAP matches the interface identifiers 0000:5efe and 0200:5efe.
func isISATAP(addr netip.Addr) bool {
	b := addr.As16()
	return (b[8] == 0 || b[8] == 2) && b[9] == 0 && b[10] == 0x5e && b[11] == 0xfe
}
