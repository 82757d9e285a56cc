package guard

import (
	"net/netip"
	"testing"
)

// FuzzPreCheck: no input panics the parser, and an allowed URL stays
// allowed, with the same host and port, when its canonical form is checked
// again: what the guard vetted is what fetch will request.
func FuzzPreCheck(f *testing.F) {
	for _, seed := range []string{
		"http://example.com/", "https://[2606:4700:4700::1111]:443/a?b#c", "http://0x7f.1/",
		"http://ｌｏｃａｌｈｏｓｔ/", "http://example。com/", "http://a@b/", "http://[::ffff:1.2.3.4]/",
		"http://xn--bcher-kva.de./", "http://example.com:0080/", "ftp://x/",
	} {
		f.Add(seed)
	}
	p := DefaultPolicy()
	f.Fuzz(func(t *testing.T, raw string) {
		target, err := p.PreCheck(raw)
		if err != nil {
			return
		}
		again, err := p.PreCheck(target.URL.String())
		if err != nil {
			t.Fatalf("%q allowed, but its canonical form %q is refused: %v", raw, target.URL, err)
		}
		if again.Host != target.Host || again.Port != target.Port {
			t.Fatalf("%q: host %s:%d, canonical form gives %s:%d", raw, target.Host, target.Port, again.Host, again.Port)
		}
	})
}

// FuzzClassify: any 16-byte address, read as IPv6 and unmapped as IPv4,
// is allowed only inside global unicast 2000::/3 or as IPv4, and only when
// every non-global row holding it is overruled by a more specific global
// row.
func FuzzClassify(f *testing.F) {
	for _, seed := range []string{
		"::ffff:0:a00:1", "::ffff:0:7f00:1", "4000::1", "8000::1", "::2:0:0:1", "5f00::1",
		"100:0:0:1::1", "2001:3::1", "2001:1::1", "2606:4700::5efe:a00:1", "::ffff:8.8.8.8", "::ffff:10.0.0.1",
	} {
		b := netip.MustParseAddr(seed).As16()
		f.Add(b[:])
	}
	globalUnicast := netip.MustParsePrefix("2000::/3")
	f.Fuzz(func(t *testing.T, raw []byte) {
		var b [16]byte
		copy(b[:], raw)
		addr := netip.AddrFrom16(b)
		for _, a := range []netip.Addr{addr, addr.Unmap()} {
			if classify(a) != "" {
				continue
			}
			if a.Is6() && !globalUnicast.Contains(a) {
				t.Fatalf("%s allowed outside 2000::/3", a)
			}
			for _, r := range registry {
				if r.global || !r.prefix.Contains(a) || overruled(a, r) {
					continue
				}
				t.Fatalf("%s allowed inside %s (%s, %s)", a, r.prefix, r.name, r.rfc)
			}
		}
	})
}

// overruled reports whether a more specific global row than r holds a.
func overruled(a netip.Addr, r special) bool {
	for _, g := range registry {
		if g.global && g.prefix.Contains(a) && g.prefix.Bits() > r.prefix.Bits() {
			return true
		}
	}
	return false
}
