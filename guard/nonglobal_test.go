package guard

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/dnstest"
)

// nonGlobalV6 are IPv6 addresses outside global unicast or inside a
// non-global registry row that the guard once let through.
var nonGlobalV6 = []string{
	"::ffff:0:a00:1",  // SIIT IPv4-translated, carrying 10.0.0.1
	"::ffff:0:7f00:1", // SIIT IPv4-translated, carrying 127.0.0.1
	"4000::1",
	"8000::1",
	"::2:0:0:1",
	"5f00::1",        // SRv6 SIDs
	"100:0:0:1::1",   // dummy prefix
	"2001:20::1",     // ORCHIDv2
	"2001:2::1",      // benchmarking
	"2001:db8::1",    // documentation
	"3fff::1",        // documentation
	"1000::1",        // unassigned, outside 2000::/3
	"e000::1",        // unassigned, outside 2000::/3
	"fec0::1",        // site-local
	"2001:1::3",      // DNS-SD SRP anycast, served on the local network
	"64:ff9b::a00:1", // NAT64 to 10.0.0.1
}

func TestNonGlobalIPv6Literal(t *testing.T) {
	for _, a := range nonGlobalV6 {
		t.Run(a, func(t *testing.T) {
			if _, err := DefaultPolicy().PreCheck("http://[" + a + "]/"); !errors.Is(err, ErrBlocked) {
				t.Fatalf("literal [%s] allowed: %v", a, err)
			}
		})
	}
}

// Every non-global IPv6 address is refused as an AAAA record, alone or
// beside a public A record: one bad record refuses the name.
func TestNonGlobalIPv6Resolved(t *testing.T) {
	records := map[string][]string{}
	for i, a := range nonGlobalV6 {
		records[aaaaName(i)] = []string{a}
		records["dual-"+aaaaName(i)] = []string{"93.184.216.34", a}
	}
	r := dnstest.Records(t, records)
	for i, a := range nonGlobalV6 {
		for _, name := range []string{aaaaName(i), "dual-" + aaaaName(i)} {
			t.Run(name+"/"+a, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				if _, err := DefaultPolicy().Check(ctx, "http://"+name+"/", r); !errors.Is(err, ErrBlocked) {
					t.Fatalf("%s with AAAA %s allowed: %v", name, a, err)
				}
			})
		}
	}
}

func aaaaName(i int) string { return "v6-" + string(rune('a'+i)) + ".sift.test" }

// The public addresses beside the bad ones above pass on their own, so the
// refusals are the AAAA records' doing.
func TestGlobalAddressesResolved(t *testing.T) {
	r := dnstest.Records(t, map[string][]string{"dual.sift.test": {"93.184.216.34", "2606:2800:220:1::1"}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := DefaultPolicy().Check(ctx, "http://dual.sift.test/", r)
	if err != nil || len(v.Addrs) != 2 {
		t.Fatalf("public dual-stack name: %v %v", v, err)
	}
}

func TestSpecialUseNames(t *testing.T) {
	tests := []struct {
		host  string
		allow []string
		want  bool // allowed
	}{
		{host: "localhost"},
		{host: "a.localhost"},
		{host: "localhost.localdomain"},
		{host: "nas.localdomain"},
		{host: "printer.local"},
		{host: "LOCAL"},
		{host: "db.internal"},
		{host: "metadata.google.internal."},
		{host: "router.home.arpa"},
		{host: "home.arpa"},
		{host: "public.test", want: true},
		{host: "local.example.com", want: true},
		{host: "internal.example.com", want: true},
		{host: "localdomain.example", want: true},
		{host: "xhome.arpa", want: true},
		{host: "printer.local", allow: []string{"printer.local"}, want: true},
		{host: "db.internal", allow: []string{"*.internal"}, want: true},
		{host: "other.internal", allow: []string{"db.internal"}},
	}
	for _, tc := range tests {
		t.Run(tc.host, func(t *testing.T) {
			p := DefaultPolicy()
			p.AllowHosts = tc.allow
			_, err := p.PreCheck("http://" + tc.host + "/")
			if got := err == nil; got != tc.want {
				t.Fatalf("allowed = %v (%v), want %v", got, err, tc.want)
			}
			if err != nil && !errors.Is(err, ErrBlocked) {
				t.Fatalf("refusal is not a policy refusal: %v", err)
			}
		})
	}
}
