package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/netip"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
)

const zoneFile = "../../../testdata/ssrf/dns_cases.json"

func startServer(t *testing.T) (addr string, s *Server, log *bytes.Buffer) {
	t.Helper()
	z, err := LoadZone(zoneFile)
	if err != nil {
		t.Fatal(err)
	}
	log = &bytes.Buffer{}
	s = &Server{Zone: z, Log: log}
	addr, err = s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return addr, s, log
}

func query(t *testing.T, addr, proto, name string, qtype uint16, edns bool) *dns.Msg {
	t.Helper()
	c := &dns.Client{Net: proto, Timeout: 2 * time.Second}
	m := new(dns.Msg)
	m.SetQuestion(dns.Fqdn(name), qtype)
	if edns {
		m.SetEdns0(1232, false)
	}
	r, _, err := c.Exchange(m, addr)
	if err != nil {
		t.Fatalf("%s %s: %v", name, dns.TypeToString[qtype], err)
	}
	return r
}

func addrs(m *dns.Msg) []string {
	var out []string
	for _, rr := range m.Answer {
		switch v := rr.(type) {
		case *dns.A:
			out = append(out, v.A.String())
		case *dns.AAAA:
			out = append(out, v.AAAA.String())
		}
	}
	return out
}

func TestLoopbackOnly(t *testing.T) {
	for _, a := range []string{"127.0.0.1:53", "[::1]:53", "127.0.0.53:5353"} {
		if err := LoopbackOnly(a); err != nil {
			t.Errorf("%s: %v", a, err)
		}
	}
	for _, a := range []string{"0.0.0.0:53", ":53", "[::]:53", "10.0.0.1:53", "localhost:53", "93.184.216.34:53"} {
		if err := LoopbackOnly(a); err == nil {
			t.Errorf("%s accepted", a)
		}
	}
}

func TestAnswers(t *testing.T) {
	addr, _, _ := startServer(t)
	cases := []struct {
		name  string
		qtype uint16
		want  []string
		rcode int
	}{
		{"public.sift.test", dns.TypeA, []string{"93.184.216.34"}, dns.RcodeSuccess},
		{"PUBLIC.Sift.Test", dns.TypeA, []string{"93.184.216.34"}, dns.RcodeSuccess},
		{"public.sift.test", dns.TypeAAAA, nil, dns.RcodeSuccess},
		{"mixed.sift.test", dns.TypeA, []string{"10.0.0.5", "93.184.216.34"}, dns.RcodeSuccess},
		{"v6tailnet.sift.test", dns.TypeAAAA, []string{"fd7a:115c:a1e0::1"}, dns.RcodeSuccess},
		{"v6mapped.sift.test", dns.TypeAAAA, []string{"127.0.0.1"}, dns.RcodeSuccess}, // net.IP prints ::ffff:127.0.0.1 as 127.0.0.1
		{"cname-internal.sift.test", dns.TypeA, []string{"10.0.0.5"}, dns.RcodeSuccess},
		{"cname-localhost.sift.test", dns.TypeA, []string{"127.0.0.1"}, dns.RcodeSuccess},
		{"cname-loop-a.sift.test", dns.TypeA, nil, dns.RcodeServerFailure},
		{"nx.sift.test", dns.TypeA, nil, dns.RcodeNameError},
		{"servfail.sift.test", dns.TypeA, nil, dns.RcodeServerFailure},
		{"not-in-file.example", dns.TypeA, nil, dns.RcodeNameError},
		{"xn--bcher-kva.sift.test", dns.TypeA, []string{"93.184.216.34"}, dns.RcodeSuccess},
		{"nas", dns.TypeA, []string{"100.101.102.103"}, dns.RcodeSuccess},
	}
	for _, c := range cases {
		r := query(t, addr, "udp", c.name, c.qtype, true)
		got := addrs(r)
		sort.Strings(got)
		if r.Rcode != c.rcode || !slices.Equal(got, c.want) {
			t.Errorf("%s %s: rcode %s answers %v; want %s %v", c.name, dns.TypeToString[c.qtype],
				dns.RcodeToString[r.Rcode], got, dns.RcodeToString[c.rcode], c.want)
		}
		if !r.Authoritative && r.Rcode != dns.RcodeServerFailure {
			t.Errorf("%s: AA not set", c.name)
		}
	}
}

func TestOwnerNameKeepsQuestionCase(t *testing.T) {
	addr, _, _ := startServer(t)
	r := query(t, addr, "udp", "PuBlIc.SiFt.TeSt", dns.TypeA, true)
	if len(r.Answer) != 1 || r.Answer[0].Header().Name != "PuBlIc.SiFt.TeSt." {
		t.Fatalf("answer %v", r.Answer)
	}
}

func TestRebindSequenceAndReset(t *testing.T) {
	addr, _, _ := startServer(t)
	var got []string
	for i := 0; i < 3; i++ {
		got = append(got, addrs(query(t, addr, "udp", "rebind.sift.test", dns.TypeA, true))...)
	}
	if want := []string{"93.184.216.34", "127.0.0.1", "127.0.0.1"}; !slices.Equal(got, want) {
		t.Fatalf("sequence %v, want %v", got, want)
	}
	// AAAA queries have their own counter and no records.
	if a := addrs(query(t, addr, "udp", "rebind.sift.test", dns.TypeAAAA, true)); len(a) != 0 {
		t.Fatalf("AAAA %v", a)
	}
	query(t, addr, "udp", ControlReset, dns.TypeTXT, false)
	if a := addrs(query(t, addr, "udp", "rebind.sift.test", dns.TypeA, true)); !slices.Equal(a, []string{"93.184.216.34"}) {
		t.Fatalf("after reset %v", a)
	}
	alt := []string{}
	for i := 0; i < 5; i++ {
		alt = append(alt, addrs(query(t, addr, "udp", "rebind-alt.sift.test", dns.TypeA, true))...)
	}
	if want := []string{"93.184.216.34", "127.0.0.1", "93.184.216.34", "127.0.0.1", "127.0.0.1"}; !slices.Equal(alt, want) {
		t.Fatalf("alternating %v, want %v", alt, want)
	}
}

func TestTruncation(t *testing.T) {
	addr, _, _ := startServer(t)
	u := query(t, addr, "udp", "tc.sift.test", dns.TypeA, true)
	if !u.Truncated || len(u.Answer) != 1 {
		t.Fatalf("udp: TC=%v answers=%d", u.Truncated, len(u.Answer))
	}
	tc := query(t, addr, "tcp", "tc.sift.test", dns.TypeA, true)
	if tc.Truncated || len(tc.Answer) != 2 {
		t.Fatalf("tcp: TC=%v answers=%d", tc.Truncated, len(tc.Answer))
	}
	// 41 records do not fit 512 bytes: plain UDP must set TC, EDNS0 1232 fits them all.
	small := query(t, addr, "udp", "many.sift.test", dns.TypeA, false)
	if !small.Truncated || slices.Contains(addrs(small), "10.0.0.5") {
		t.Fatalf("many/512: TC=%v, private present=%v", small.Truncated, slices.Contains(addrs(small), "10.0.0.5"))
	}
	big := query(t, addr, "udp", "many.sift.test", dns.TypeA, true)
	if big.Truncated || len(big.Answer) != 41 {
		t.Fatalf("many/edns: TC=%v answers=%d", big.Truncated, len(big.Answer))
	}
}

func TestTimeoutDropsQuery(t *testing.T) {
	addr, _, log := startServer(t)
	c := &dns.Client{Net: "udp", Timeout: 300 * time.Millisecond}
	m := new(dns.Msg)
	m.SetQuestion("timeout.sift.test.", dns.TypeA)
	if _, _, err := c.Exchange(m, addr); err == nil {
		t.Fatal("got a reply for the TIMEOUT case")
	}
	if !strings.Contains(log.String(), `"dropped":true`) {
		t.Fatalf("drop not logged: %s", log.String())
	}
}

// goResolver is what sift should use under test: Go's own DNS client, pointed at
// the fake server only (the system resolv.conf nameserver is never dialled).
func goResolver(addr string) *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr) // network is "udp" or "tcp"
		},
	}
}

// TestGoResolverGotchas records how Go's resolver behaves against the cases,
// because each behaviour matters to sift's checker.
func TestGoResolverGotchas(t *testing.T) {
	addr, s, log := startServer(t)
	r := goResolver(addr)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// 1. LookupNetIP(ctx, "ip", ...) returns A answers as IPv4-mapped IPv6
	//    (Is4In6). netip.Prefix("10.0.0.0/8").Contains() is false for those,
	//    so a prefix table check without Unmap() passes private addresses.
	ips, err := r.LookupNetIP(ctx, "ip", "internal.sift.test")
	if err != nil || len(ips) != 1 {
		t.Fatalf("LookupNetIP: %v %v", ips, err)
	}
	rfc1918 := netip.MustParsePrefix("10.0.0.0/8")
	t.Logf("LookupNetIP(ip) -> %v Is4In6=%v; 10/8.Contains=%v; after Unmap=%v", ips[0], ips[0].Is4In6(), rfc1918.Contains(ips[0]), rfc1918.Contains(ips[0].Unmap()))
	if !rfc1918.Contains(ips[0].Unmap()) {
		t.Fatal("Unmap()ed address not in 10/8")
	}
	ips4, _ := r.LookupNetIP(ctx, "ip4", "internal.sift.test")
	t.Logf("LookupNetIP(ip4) -> %v Is4=%v", ips4, len(ips4) == 1 && ips4[0].Is4())

	// 2. The resolver retries over TCP on TC and so sees the private record.
	tc, err := r.LookupNetIP(ctx, "ip", "tc.sift.test")
	if err != nil || len(tc) != 2 {
		t.Fatalf("tc.sift.test: %v %v", tc, err)
	}
	// 3. All 41 records arrive (Go sends EDNS0 with a 1232-byte buffer).
	many, err := r.LookupNetIP(ctx, "ip", "many.sift.test")
	if err != nil || len(many) != 41 {
		t.Fatalf("many.sift.test: %d %v", len(many), err)
	}
	// 4. A and AAAA come back merged; the checker must look at every one.
	mixed, _ := r.LookupNetIP(ctx, "ip", "mixedfam.sift.test")
	if len(mixed) != 2 {
		t.Fatalf("mixedfam: %v", mixed)
	}
	// 5. SERVFAIL, NXDOMAIN and silence are errors, never an empty success.
	for _, n := range []string{"servfail.sift.test", "nx.sift.test", "cname-loop-a.sift.test"} {
		if got, err := r.LookupNetIP(ctx, "ip", n); err == nil {
			t.Errorf("%s: no error, got %v", n, got)
		}
	}
	short, cancel2 := context.WithTimeout(ctx, 1500*time.Millisecond)
	_, err = r.LookupNetIP(short, "ip", "timeout.sift.test")
	cancel2()
	var de *net.DNSError
	if !errors.As(err, &de) {
		t.Errorf("timeout.sift.test: %v", err)
	}
	// 6. One LookupNetIP per fetch = one A query: the rebinding counter moves once.
	s.Zone.Reset()
	first, _ := r.LookupNetIP(ctx, "ip", "rebind.sift.test")
	second, _ := r.LookupNetIP(ctx, "ip", "rebind.sift.test")
	t.Logf("rebind: first %v, second %v (a pinned dial uses the first only)", first, second)
	if len(first) != 1 || first[0].Unmap().String() != "93.184.216.34" || second[0].Unmap().String() != "127.0.0.1" {
		t.Fatalf("rebind sequence: %v then %v", first, second)
	}
	// 7. Names that never reach DNS: /etc/hosts answers localhost first, and
	//    all-numeric hosts are sent to DNS as names by the pure-Go resolver.
	loc, _ := r.LookupNetIP(ctx, "ip", "localhost")
	t.Logf("localhost -> %v (from /etc/hosts; DNS log has it: %v)", loc, strings.Contains(log.String(), `"name":"localhost."`))
	for _, n := range []string{"127.1", "2130706433", "0x7f.1", "0177.0.0.1"} {
		got, err := r.LookupNetIP(ctx, "ip", n)
		t.Logf("pure-Go resolver %q -> %v err=%v (sent to DNS: %v)", n, got, err, strings.Contains(log.String(), `"name":"`+n+`."`))
	}
}

// The project's own file loads beside dns_cases.json as one zone, and a
// host defined in both is refused rather than silently overwritten.
func TestLoadZoneSeveralFiles(t *testing.T) {
	const own = "../../../testdata/ssrf/sift_dns.json"
	z, err := LoadZone(zoneFile, own)
	if err != nil {
		t.Fatal(err)
	}
	ans := z.Resolve("siit10-dual.v6bad.sift.test.", dns.TypeAAAA)
	if len(ans.RRs) != 1 || ans.RRs[0].(*dns.AAAA).AAAA.String() != "::ffff:0:a00:1" {
		t.Errorf("AAAA from the second file: %v", ans.RRs)
	}
	if ans := z.Resolve("public.sift.test.", dns.TypeA); len(ans.RRs) != 1 {
		t.Errorf("A from the first file: %v", ans.RRs)
	}
	if _, err := LoadZone(zoneFile, zoneFile); err == nil || !strings.Contains(err.Error(), "defined twice") {
		t.Errorf("the same file twice: err = %v, want a duplicate-host error", err)
	}
}
