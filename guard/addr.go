package guard

import "net/netip"

// special is one row of the address table: a prefix, the name a refusal
// gives, the RFC that defines it, and whether sift may connect to it.
type special struct {
	prefix netip.Prefix
	name   string
	rfc    string
	global bool
}

func row(cidr, name, rfc string, global bool) special {
	return special{netip.MustParsePrefix(cidr), name, rfc, global}
}

// registry is IANA's IPv4 and IPv6 Special-Purpose Address Registries
// (with multicast, site-local and the SIIT prefix, which live elsewhere),
// under two catch-all rows: every IPv4 address not named is global, and
// an IPv6 address is global only inside global unicast 2000::/3. The most
// specific row containing an address decides, so a globally reachable row
// inside a refused block (AMT inside 2001::/23) admits its addresses.
//
// Where sift refuses a row the registry calls globally reachable, the row
// says why. Prefixes that embed an IPv4 address (NAT64, 6to4, Teredo) are
// refused whole, whatever the embedded address: they are never how a
// public site is reached, and a gateway would reach the embedded address
// for us.
var registry = []special{
	row("0.0.0.0/0", "IPv4 address", "RFC 791", true),
	row("0.0.0.0/8", "unspecified address", "RFC 791", false),
	row("10.0.0.0/8", "private address", "RFC 1918", false),
	row("100.64.0.0/10", "shared address space (CGNAT)", "RFC 6598", false),
	row("127.0.0.0/8", "loopback address", "RFC 1122", false),
	row("169.254.0.0/16", "link-local address", "RFC 3927", false),
	row("172.16.0.0/12", "private address", "RFC 1918", false),
	row("192.0.0.0/24", "IETF protocol assignment", "RFC 6890", false),
	row("192.0.0.0/29", "IPv4 service continuity address", "RFC 7335", false),
	row("192.0.0.8/32", "IPv4 dummy address", "RFC 7600", false),
	// Globally reachable in the registry, but answered by the nearest
	// gateway or relay, never by a web site.
	row("192.0.0.9/32", "PCP anycast address", "RFC 7723", false),
	row("192.0.0.10/32", "TURN anycast address", "RFC 8155", false),
	row("192.0.0.170/31", "NAT64 discovery address", "RFC 8880", false),
	row("192.0.2.0/24", "documentation address", "RFC 5737", false),
	row("192.31.196.0/24", "AS112 address", "RFC 7535", true),
	row("192.52.193.0/24", "AMT address", "RFC 7450", true),
	row("192.88.99.0/24", "6to4 relay address", "RFC 7526", false),
	row("192.168.0.0/16", "private address", "RFC 1918", false),
	row("192.175.48.0/24", "AS112 address", "RFC 7534", true),
	row("198.18.0.0/15", "benchmarking address", "RFC 2544", false),
	row("198.51.100.0/24", "documentation address", "RFC 5737", false),
	row("203.0.113.0/24", "documentation address", "RFC 5737", false),
	row("224.0.0.0/4", "multicast address", "RFC 5771", false),
	row("240.0.0.0/4", "reserved address", "RFC 1112", false),
	row("255.255.255.255/32", "limited broadcast address", "RFC 919", false),

	row("::/0", "non-global-unicast IPv6 address", "RFC 4291", false),
	row("2000::/3", "global unicast address", "RFC 4291", true),
	row("::/128", "unspecified address", "RFC 4291", false),
	row("::1/128", "loopback address", "RFC 4291", false),
	row("::/96", "IPv4-compatible address", "RFC 4291", false),
	row("::ffff:0:0/96", "IPv4-mapped address", "RFC 4291", false),
	row("::ffff:0:0:0/96", "IPv4-translated address", "RFC 2765", false),
	// Globally reachable in the registry; refused as embedding IPv4.
	row("64:ff9b::/96", "NAT64 address", "RFC 6052", false),
	row("64:ff9b:1::/48", "NAT64 address", "RFC 8215", false),
	row("100::/64", "discard-only address", "RFC 6666", false),
	row("100:0:0:1::/64", "dummy IPv6 address", "RFC 9780", false),
	row("2001::/23", "IETF protocol assignment", "RFC 2928", false),
	row("2001::/32", "Teredo address", "RFC 4380", false),
	// Globally reachable in the registry, but answered by the nearest
	// gateway, relay or local registration server, never by a web site.
	row("2001:1::1/128", "PCP anycast address", "RFC 7723", false),
	row("2001:1::2/128", "TURN anycast address", "RFC 8155", false),
	row("2001:1::3/128", "DNS-SD SRP anycast address", "RFC 9665", false),
	row("2001:2::/48", "benchmarking address", "RFC 5180", false),
	row("2001:3::/32", "AMT address", "RFC 7450", true),
	row("2001:4:112::/48", "AS112 address", "RFC 7535", true),
	row("2001:10::/28", "ORCHID address", "RFC 4843", false),
	// Globally reachable in the registry, but cryptographic identifiers
	// rather than locators: no route leads to them.
	row("2001:20::/28", "ORCHIDv2 address", "RFC 7343", false),
	row("2001:30::/28", "drone remote ID (DET) address", "RFC 9374", false),
	row("2001:db8::/32", "documentation address", "RFC 3849", false),
	row("2002::/16", "6to4 address", "RFC 3056", false),
	row("2620:4f:8000::/48", "AS112 address", "RFC 7534", true),
	row("3fff::/20", "documentation address", "RFC 9637", false),
	row("5f00::/16", "SRv6 SID address", "RFC 9602", false),
	row("fc00::/7", "unique local address", "RFC 4193", false),
	row("fe80::/10", "link-local address", "RFC 4291", false),
	row("fec0::/10", "site-local address", "RFC 3879", false),
	row("ff00::/8", "multicast address", "RFC 4291", false),
}

// rowOf returns the most specific row containing addr. The catch-all rows
// contain every address of their family.
func rowOf(addr netip.Addr) special {
	best := special{}
	for _, r := range registry {
		if r.prefix.Contains(addr) && (!best.prefix.IsValid() || r.prefix.Bits() > best.prefix.Bits()) {
			best = r
		}
	}
	return best
}

// classify returns why addr is not a global address sift may connect to,
// or "" when it is. ISATAP interface identifiers embed an IPv4 address in
// any prefix, so they are refused wherever they appear.
func classify(addr netip.Addr) string {
	if addr.Zone() != "" {
		return "address with a zone"
	}
	r := rowOf(addr)
	if !r.prefix.IsValid() {
		return "invalid address"
	}
	if !r.global {
		return r.name
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
