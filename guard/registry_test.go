package guard

import (
	"net/netip"
	"strings"
	"testing"
)

// lastAddr is the highest address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	p = p.Masked()
	if p.Addr().Is4() {
		b := p.Addr().As4()
		for i := p.Bits(); i < 32; i++ {
			b[i/8] |= 0x80 >> (i % 8)
		}
		return netip.AddrFrom4(b)
	}
	b := p.Addr().As16()
	for i := p.Bits(); i < 128; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	return netip.AddrFrom16(b)
}

// decidingRow is the most specific row holding a, found without rowOf.
func decidingRow(t *testing.T, a netip.Addr) special {
	t.Helper()
	var best *special
	for i, r := range registry {
		if r.prefix.Contains(a) && (best == nil || r.prefix.Bits() > best.prefix.Bits()) {
			best = &registry[i]
		}
	}
	if best == nil {
		t.Fatalf("no row holds %s", a)
	}
	return *best
}

// want is what classify must answer for a, decided by row r.
func want(r special) string {
	if r.global {
		return ""
	}
	return r.name
}

// Every row decides for an address inside it, and the first address after
// it goes by whichever row holds that one: allowed when no non-global row
// does.
func TestRegistryRows(t *testing.T) {
	seen := map[netip.Prefix]bool{}
	for _, r := range registry {
		t.Run(r.prefix.String(), func(t *testing.T) {
			if seen[r.prefix] || r.prefix != r.prefix.Masked() || !strings.HasPrefix(r.rfc, "RFC ") || r.name == "" {
				t.Fatalf("row %+v: duplicate, unmasked, or without its RFC or name", r)
			}
			seen[r.prefix] = true
			inside := insideOnly(t, r)
			if got := classify(inside); got != want(r) {
				t.Errorf("inside %s: classify = %q, want %q", inside, got, want(r))
			}
			after := lastAddr(r.prefix).Next()
			if !after.IsValid() || after.Is4() != r.prefix.Addr().Is4() {
				return // the row ends its family's space
			}
			other := decidingRow(t, after)
			if other.prefix == r.prefix {
				t.Fatalf("%s: first address after the row, %s, is inside it", r.prefix, after)
			}
			if got := classify(after); got != want(other) {
				t.Errorf("after %s: classify = %q, want %q (row %s)", after, got, want(other), other.prefix)
			}
		})
	}
}

// insideOnly picks an address of r that no more specific row holds: the
// first, the last or the middle one.
func insideOnly(t *testing.T, r special) netip.Addr {
	t.Helper()
	first, last := r.prefix.Masked().Addr(), lastAddr(r.prefix)
	middle := first // the upper half's first address
	if r.prefix.Bits() < first.BitLen() {
		middle = lastAddr(netip.PrefixFrom(first, r.prefix.Bits()+1)).Next()
	}
	for _, a := range []netip.Addr{first, last, middle, first.Next(), last.Prev()} {
		if a.IsValid() && r.prefix.Contains(a) && decidingRow(t, a).prefix == r.prefix {
			return a
		}
	}
	t.Fatalf("row %s is shadowed by more specific rows", r.prefix)
	return netip.Addr{}
}

// The addresses the red team got through, and their public neighbours.
func TestClassifyExamples(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"::ffff:0:a00:1", "IPv4-translated address"},
		{"::ffff:0:7f00:1", "IPv4-translated address"},
		{"::ffff:10.0.0.1", "IPv4-mapped address"},
		{"::ffff:8.8.8.8", "IPv4-mapped address"},
		{"4000::1", "non-global-unicast IPv6 address"},
		{"8000::1", "non-global-unicast IPv6 address"},
		{"::2:0:0:1", "non-global-unicast IPv6 address"},
		{"::a00:1", "IPv4-compatible address"},
		{"5f00::1", "SRv6 SID address"},
		{"100:0:0:1::1", "dummy IPv6 address"},
		{"2001::1", "Teredo address"},
		{"2001:4860:4860::8888", ""},
		{"2606:4700:4700::1111", ""},
		{"2001:3::1", ""},
		{"2001:200::1", ""}, // first address after 2001::/23
		{"2001:db8::5efe:a00:1", "documentation address"},
		{"2606:4700::5efe:a00:1", "ISATAP address"},
		{"8.8.8.8", ""},
		{"192.0.0.9", "PCP anycast address"},
		{"192.31.196.1", ""},
		{"255.255.255.255", "limited broadcast address"},
	} {
		if got := classify(netip.MustParseAddr(tc.addr)); got != tc.want {
			t.Errorf("classify(%s) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}
