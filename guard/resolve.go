package guard

import (
	"context"
	"errors"
	"net/netip"
)

// Resolver looks up a host's addresses; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Vetted is a URL whose every address passed the checks: the only
// addresses sift may dial for it.
type Vetted struct {
	// URL is canonical, with the host as it was checked.
	URL string
	// Host is the host as it was checked, in Target.Host's form.
	Host  string
	Port  int
	Addrs []netip.Addr
}

func vetted(t *Target, addrs []netip.Addr) *Vetted {
	return &Vetted{URL: t.URL.String(), Host: t.Host, Port: t.Port, Addrs: addrs}
}

// Check runs PreCheck and then resolves a host name, refusing it if any of
// its A or AAAA records is not a global address (or allowed by
// AllowCIDRs). One bad record is enough: which record a client dials is not
// ours to choose. A name that does not resolve is an *Unresolved.
func (p *Policy) Check(ctx context.Context, raw string, r Resolver) (*Vetted, error) {
	t, err := p.PreCheck(raw)
	if err != nil {
		return nil, err
	}
	if t.IP.IsValid() {
		return vetted(t, []netip.Addr{t.IP}), nil
	}
	addrs, err := r.LookupNetIP(ctx, "ip", t.Host)
	if err != nil {
		return nil, unresolved(t.Host, err)
	}
	if len(addrs) == 0 {
		return nil, &Unresolved{Host: t.Host, NotFound: true, Err: errors.New("no address")}
	}
	for _, a := range addrs {
		if b := p.refusal(a); b != nil {
			b.Reason += " (" + t.Host + ")"
			return nil, b
		}
	}
	return vetted(t, addrs), nil
}
