// Package dnstest is a loopback DNS server for tests: fixed A and AAAA
// records, served over UDP and TCP on one port, and a resolver that asks
// only it. It lets a test give a name a private address without touching
// the machine's resolver.
package dnstest

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"testing"

	"github.com/miekg/dns"
)

// Resolver serves records (name → IPv4 address) and returns a resolver
// that asks only this server. Unknown names are NXDOMAIN.
func Resolver(t testing.TB, records map[string]string) *net.Resolver {
	t.Helper()
	multi := make(map[string][]string, len(records))
	for name, addr := range records {
		multi[name] = []string{addr}
	}
	return Records(t, multi)
}

// Records serves each name's addresses, IPv4 ones as A records and IPv6
// ones as AAAA records, and returns a resolver that asks only this server.
// Unknown names are NXDOMAIN.
func Records(t testing.TB, records map[string][]string) *net.Resolver {
	t.Helper()
	zone := map[string][]netip.Addr{}
	for name, addrs := range records {
		fqdn := dns.Fqdn(strings.ToLower(name))
		for _, a := range addrs {
			zone[fqdn] = append(zone[fqdn], netip.MustParseAddr(a))
		}
	}
	handler := dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		for _, q := range r.Question {
			addrs, ok := zone[strings.ToLower(q.Name)]
			if !ok {
				m.Rcode = dns.RcodeNameError
				continue
			}
			for _, a := range addrs {
				hdr := dns.RR_Header{Name: q.Name, Class: dns.ClassINET}
				switch {
				case q.Qtype == dns.TypeA && a.Is4():
					hdr.Rrtype = dns.TypeA
					m.Answer = append(m.Answer, &dns.A{Hdr: hdr, A: a.AsSlice()})
				case q.Qtype == dns.TypeAAAA && a.Is6():
					hdr.Rrtype = dns.TypeAAAA
					m.Answer = append(m.Answer, &dns.AAAA{Hdr: hdr, AAAA: a.AsSlice()})
				}
			}
		}
		_ = w.WriteMsg(m)
	})
	pc, ln, err := ListenUDPAndTCP()
	if err != nil {
		t.Fatal(err)
	}
	udp := &dns.Server{PacketConn: pc, Handler: handler}
	tcp := &dns.Server{Listener: ln, Handler: handler}
	go func() { _ = udp.ActivateAndServe() }()
	go func() { _ = tcp.ActivateAndServe() }()
	t.Cleanup(func() { _ = udp.Shutdown(); _ = tcp.Shutdown() })
	addr := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}
}

// ListenUDPAndTCP opens a UDP socket and a TCP listener on one loopback
// port, as a DNS server needs, trying again when the TCP side of a free
// UDP port is taken by another process.
func ListenUDPAndTCP() (net.PacketConn, net.Listener, error) {
	var lastErr error
	for range 20 {
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			return nil, nil, err
		}
		ln, err := net.Listen("tcp", pc.LocalAddr().String())
		if err == nil {
			return pc, ln, nil
		}
		pc.Close()
		lastErr = err
	}
	return nil, nil, lastErr
}
