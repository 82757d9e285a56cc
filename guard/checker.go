package guard

import (
	"context"
	"net"
	"time"
)

// ResolveTimeout bounds the DNS lookup of one host.
const ResolveTimeout = 5 * time.Second

// Checker is the guard as the rest of sift uses it: the guard stage vets
// each request's URL with it, fetch each redirect hop, and every vetted
// transport dials through it.
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
func (c *Checker) Vet(ctx context.Context, rawURL string) (*Vetted, error) {
	ctx, cancel := context.WithTimeout(ctx, ResolveTimeout)
	defer cancel()
	return c.policy.Check(ctx, rawURL, c.resolver)
}

// Dial connects to one of v's vetted addresses; the dialer's Control hook
// checks the address once more.
func (c *Checker) Dial(ctx context.Context, v *Vetted) (net.Conn, error) {
	return c.dialer.DialVetted(ctx, v)
}
