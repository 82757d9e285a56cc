// Package dnstest is a loopback DNS server for tests: fixed A records,
// served over UDP and TCP on one port, and a resolver that asks only it.
// It lets a test give a name a private address without touching the
// machine's resolver.
package dnstest

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/miekg/dns"
)

// Resolver serves records (name → IPv4 address) and returns a resolver
// that asks only this server. Unknown names are NXDOMAIN.
func Resolver(t testing.TB, records map[string]string) *net.Resolver {
	t.Helper()
	zone := map[string]net.IP{}
	for name, addr := range records {
		zone[dns.Fqdn(strings.ToLower(name))] = net.ParseIP(addr).To4()
	}
	handler := dns.HandlerFunc(func(w dns.ResponseWriter, r *dns.Msg) {
		m := new(dns.Msg)
		m.SetReply(r)
		for _, q := range r.Question {
			ip, ok := zone[strings.ToLower(q.Name)]
			switch {
			case !ok:
				m.Rcode = dns.RcodeNameError
			case q.Qtype == dns.TypeA:
				m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeA, Class: dns.ClassINET}, A: ip})
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
