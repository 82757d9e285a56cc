package guard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// ConnectTimeout bounds one TCP connect.
const ConnectTimeout = 5 * time.Second

// Dialer connects only to addresses the guard vetted. Its Control hook
// checks the socket's address once more just before connect, a backstop
// should anything hand the dialer an address that skipped the checks.
type Dialer struct {
	policy *Policy
	dialer net.Dialer
}

// NewDialer returns a dialer enforcing p.
func NewDialer(p *Policy) *Dialer {
	d := &Dialer{policy: p}
	d.dialer = net.Dialer{Timeout: ConnectTimeout, Control: d.control}
	return d
}

// DialVetted connects to one of v's addresses on its port, trying them in
// order. It never resolves a name.
func (d *Dialer) DialVetted(ctx context.Context, v *Vetted) (net.Conn, error) {
	var errs []error
	for _, a := range v.Addrs {
		conn, err := d.dialer.DialContext(ctx, "tcp", netip.AddrPortFrom(a, uint16(v.Port)).String())
		if err == nil {
			return conn, nil
		}
		var b *Blocked
		if errors.As(err, &b) {
			return nil, b
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("connect %s: %w", v.Host, errors.Join(errs...))
}

func (d *Dialer) control(_, address string, _ syscall.RawConn) error {
	host, portText, err := net.SplitHostPort(address)
	if err != nil {
		return blocked("unparsable socket address %q", address)
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return blocked("socket address %q is not an IP", address)
	}
	if b := d.policy.refusal(addr); b != nil {
		return b
	}
	port, _ := strconv.Atoi(portText)
	for _, allowed := range d.policy.AllowPorts {
		if port == allowed {
			return nil
		}
	}
	return blocked("port %d not allowed", port)
}
