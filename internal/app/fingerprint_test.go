package app

import (
	"net/netip"
	"testing"

	"github.com/siftd/sift/guard"
)

// TestPolicyFingerprint: a guard policy's fingerprint ignores the order
// its lists are written in and changes with anything the guard allows.
func TestPolicyFingerprint(t *testing.T) {
	cidrs := func(s ...string) []netip.Prefix {
		out := make([]netip.Prefix, len(s))
		for i, c := range s {
			out[i] = netip.MustParsePrefix(c)
		}
		return out
	}
	base := PolicyFingerprint(&guard.Policy{AllowPorts: []int{80, 443}, AllowCIDRs: cidrs("10.0.0.0/8", "192.168.1.0/24")})
	if same := PolicyFingerprint(&guard.Policy{AllowPorts: []int{443, 80}, AllowCIDRs: cidrs("192.168.1.0/24", "10.0.0.0/8")}); same != base {
		t.Error("the order of the lists changed the fingerprint")
	}
	for _, other := range []*guard.Policy{
		{AllowPorts: []int{80, 443}},
		{AllowPorts: []int{80, 443, 8080}, AllowCIDRs: cidrs("10.0.0.0/8", "192.168.1.0/24")},
		{AllowPorts: []int{80, 443}, AllowCIDRs: cidrs("10.0.0.0/8", "192.168.1.0/24"), AllowHosts: []string{"intranet.example"}},
	} {
		if PolicyFingerprint(other) == base {
			t.Errorf("%+v has the same fingerprint", other)
		}
	}
}
