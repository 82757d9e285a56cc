package guard

import (
	"context"
	"net"

	"github.com/siftd/sift/stages"
)

// Checker is the guard as other stages use it (stages.URLGuard): fetch
// vets each redirect hop with it and dials through it.
type Checker struct {
	policy   *Policy
	resolver Resolver
	dialer   *Dialer
}

// NewChecker returns a Checker enforcing p, resolving with r.
func NewChecker(p *Policy, r Resolver) *Checker {
	return &Checker{policy: p, resolver: r, dialer: NewDialer(p)}
}

// Vet checks rawURL fully and returns it canonical with its vetted
// addresses.
func (c *Checker) Vet(ctx context.Context, rawURL string) (*stages.Target, error) {
	ctx, cancel := context.WithTimeout(ctx, ResolveTimeout)
	defer cancel()
	v, err := c.policy.Check(ctx, rawURL, c.resolver)
	if err != nil {
		return nil, err
	}
	return &stages.Target{URL: v.URL.String(), Host: v.Host, Port: v.Port, Addrs: v.Addrs}, nil
}

// Dial connects to one of t's vetted addresses; the dialer's Control hook
// checks the address once more.
func (c *Checker) Dial(ctx context.Context, t *stages.Target) (net.Conn, error) {
	return c.dialer.DialVetted(ctx, &Vetted{Target: &Target{Host: t.Host, Port: t.Port}, Addrs: t.Addrs})
}

var _ stages.URLGuard = (*Checker)(nil)
