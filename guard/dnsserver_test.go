package guard

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"

	"github.com/siftd/sift/internal/testkit/dnstest"
)

// fakeDNS is an authoritative-only DNS server on loopback that answers from
// testdata/ssrf/dns_cases.json and sift_dns.json, so resolve cases go
// through Go's real resolver: UDP, truncation and TCP retry, CNAME chains,
// error codes.
type fakeDNS struct {
	mu      sync.Mutex
	entries map[string]dnsEntry // by lower-case FQDN
	queries map[string]int      // by name and type, for answer sequences
}

type dnsRecord struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

type dnsEntry struct {
	Host        string        `json:"host"`
	Records     []dnsRecord   `json:"records"`
	Sequence    [][]dnsRecord `json:"sequence"`
	Rcode       string        `json:"rcode"`
	TruncateUDP bool          `json:"truncate_udp"`
}

// startFakeDNS serves the DNS cases on 127.0.0.1 (UDP and TCP, one port)
// and returns a resolver that asks only it.
func startFakeDNS(t *testing.T) *net.Resolver {
	t.Helper()
	z := &fakeDNS{entries: map[string]dnsEntry{}, queries: map[string]int{}}
	for _, name := range dnsFiles {
		raw, err := os.ReadFile(filepath.Join(corpusDir, name))
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Cases []dnsEntry `json:"cases"`
		}
		if err := json.Unmarshal(raw, &file); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range file.Cases {
			z.entries[dns.Fqdn(strings.ToLower(e.Host))] = e
		}
	}
	pc, ln, err := dnstest.ListenUDPAndTCP()
	if err != nil {
		t.Fatal(err)
	}
	udp := &dns.Server{PacketConn: pc, Handler: z.handler(true)}
	tcp := &dns.Server{Listener: ln, Handler: z.handler(false)}
	go func() { _ = udp.ActivateAndServe() }()
	go func() { _ = tcp.ActivateAndServe() }()
	t.Cleanup(func() {
		_ = udp.Shutdown()
		_ = tcp.Shutdown()
	})
	addr := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}
}

func (z *fakeDNS) handler(udp bool) dns.HandlerFunc {
	return func(w dns.ResponseWriter, req *dns.Msg) {
		resp := new(dns.Msg)
		resp.SetReply(req)
		resp.Authoritative = true
		q := req.Question[0]
		entry, ok := z.entries[strings.ToLower(q.Name)]
		switch {
		case !ok:
			resp.Rcode = dns.RcodeNameError
		case entry.Rcode == "TIMEOUT":
			return // no reply
		case entry.Rcode != "" && entry.Rcode != "NOERROR":
			resp.Rcode = dns.StringToRcode[entry.Rcode]
		default:
			resp.Answer = z.answer(q, entry, 0)
			if udp && entry.TruncateUDP && len(resp.Answer) > 1 {
				resp.Truncated, resp.Answer = true, resp.Answer[:1]
			}
		}
		if udp {
			// As real servers do: what does not fit the client's buffer is
			// cut and flagged, and the client retries over TCP.
			size := dns.MinMsgSize
			if opt := req.IsEdns0(); opt != nil {
				size = int(opt.UDPSize())
			}
			resp.Truncate(size)
		}
		_ = w.WriteMsg(resp)
	}
}

// answer returns the records of one name for a query type, chasing CNAMEs
// that point inside the zone, as an authoritative server does.
func (z *fakeDNS) answer(q dns.Question, e dnsEntry, depth int) []dns.RR {
	records := e.Records
	if len(e.Sequence) > 0 {
		z.mu.Lock()
		key := q.Name + dns.TypeToString[q.Qtype]
		n := z.queries[key]
		z.queries[key]++
		z.mu.Unlock()
		records = e.Sequence[min(n, len(e.Sequence)-1)]
	}
	var out []dns.RR
	for _, r := range records {
		hdr := dns.RR_Header{Name: dns.Fqdn(e.Host), Class: dns.ClassINET, Ttl: 0}
		switch {
		case r.Type == "CNAME":
			hdr.Rrtype = dns.TypeCNAME
			out = append(out, &dns.CNAME{Hdr: hdr, Target: r.Value})
			if target, ok := z.entries[strings.ToLower(r.Value)]; ok && depth < 8 {
				out = append(out, z.answer(q, target, depth+1)...)
			}
		case r.Type == "A" && q.Qtype == dns.TypeA:
			hdr.Rrtype = dns.TypeA
			out = append(out, &dns.A{Hdr: hdr, A: net.ParseIP(r.Value).To4()})
		case r.Type == "AAAA" && q.Qtype == dns.TypeAAAA:
			hdr.Rrtype = dns.TypeAAAA
			out = append(out, &dns.AAAA{Hdr: hdr, AAAA: net.ParseIP(r.Value)})
		}
	}
	return out
}

func TestCorpusResolve(t *testing.T) {
	resolver := startFakeDNS(t)
	cases := loadCorpus(t, "resolve")
	var mismatches []string
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := c.policy(t).Check(ctx, c.URL, resolver)
		cancel()
		if got := verdict(t, c, err); got != c.Expect {
			mismatches = append(mismatches, c.ID+": got "+got+" ("+errText(err)+"), want "+c.Expect+" — "+c.Why)
		}
	}
	t.Logf("%d resolve cases", len(cases))
	reportMismatches(t, "resolve", mismatches, len(cases))
}

// TestUnresolvedClasses: a name that does not exist is ErrNoSuchHost, a
// resolver that fails (SERVFAIL, no reply) ErrResolveFailed; neither is a
// policy refusal.
func TestUnresolvedClasses(t *testing.T) {
	resolver := startFakeDNS(t)
	tests := []struct {
		url  string
		want error
	}{
		{"http://nx.sift.test/", ErrNoSuchHost},
		{"http://servfail.sift.test/", ErrResolveFailed},
		{"http://timeout.sift.test/", ErrResolveFailed},
	}
	for _, tc := range tests {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		_, err := DefaultPolicy().Check(ctx, tc.url, resolver)
		cancel()
		var u *Unresolved
		if !errors.Is(err, tc.want) || errors.Is(err, ErrBlocked) || !errors.As(err, &u) || u.Host != strings.TrimSuffix(strings.TrimPrefix(tc.url, "http://"), "/") {
			t.Errorf("%s: %v, want %v", tc.url, err, tc.want)
		}
	}
}
