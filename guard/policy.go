package guard

import (
	"net/netip"
	"strings"
)

// Policy is what the guard allows. The zero value allows nothing; use
// DefaultPolicy or a decoded configuration.
type Policy struct {
	AllowPorts []int
	// AllowHosts, when not empty, is the only set of host names admitted,
	// local names included; their addresses are still checked unless
	// AllowCIDRs admits them too.
	AllowHosts []string
	// AllowCIDRs admits addresses the address rules would refuse.
	AllowCIDRs []netip.Prefix
}

// defaultPorts are the ports a URL may name unless the operator widens them.
func defaultPorts() []int { return []int{80, 443} }

// DefaultPolicy allows ports 80 and 443 and global addresses only.
func DefaultPolicy() *Policy {
	return &Policy{AllowPorts: defaultPorts()}
}

// checkAddr refuses an address that is not global, unless allowed.
func (p *Policy) checkAddr(addr netip.Addr) error {
	if b := p.refusal(addr); b != nil {
		return b
	}
	return nil
}

// refusal says why addr may not be dialled ("private address 10.0.0.5"),
// or returns nil when it may.
func (p *Policy) refusal(addr netip.Addr) *Blocked {
	for _, c := range p.AllowCIDRs {
		if c.Contains(addr) {
			return nil
		}
	}
	if class := classify(addr); class != "" {
		return &Blocked{Rule: class, Reason: class + " " + addr.String()}
	}
	return nil
}

// hostAllowed matches a name against AllowHosts, ignoring case and a
// trailing dot. "*.example.com" admits every name under example.com.
func (p *Policy) hostAllowed(name string) bool {
	for _, h := range p.AllowHosts {
		h = strings.TrimSuffix(strings.ToLower(h), ".")
		if h == name || strings.HasPrefix(h, "*.") && strings.HasSuffix(name, h[1:]) {
			return true
		}
	}
	return false
}
