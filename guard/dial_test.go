package guard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

func loopbackTarget(t *testing.T) (*Vetted, int) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	t.Cleanup(srv.Close)
	ap := netip.MustParseAddrPort(srv.Listener.Addr().String())
	v := &Vetted{Host: "origin.test", Port: int(ap.Port()), Addrs: []netip.Addr{ap.Addr()}}
	return v, int(ap.Port())
}

// The Control hook refuses a socket address the policy forbids even when a
// caller hands the dialer an address that skipped the checks.
func TestDialerBackstop(t *testing.T) {
	v, port := loopbackTarget(t)
	_, err := NewDialer(DefaultPolicy()).DialVetted(context.Background(), v)
	if !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), "loopback address 127.0.0.1") {
		t.Fatalf("dial loopback under the default policy: %v", err)
	}
	p := &Policy{AllowPorts: []int{port - 1}, AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
	_, err = NewDialer(p).DialVetted(context.Background(), v)
	if !errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), "not allowed") {
		t.Fatalf("dial a port outside allow_ports: %v", err)
	}
	p.AllowPorts = []int{port}
	conn, err := NewDialer(p).DialVetted(context.Background(), v)
	if err != nil {
		t.Fatalf("dial an allowed address: %v", err)
	}
	conn.Close()
}

func TestRulesCarryNoURLText(t *testing.T) {
	for _, raw := range []string{"http://secret-name/", "http://10.1.2.3/", "ftp://x/", "http://a.example:8080/", "http://bad_%41.example/"} {
		p := DefaultPolicy()
		p.AllowHosts = []string{"only.example"}
		_, err := p.PreCheck(raw)
		var b *Blocked
		if !errors.As(err, &b) {
			t.Fatalf("%s: %v", raw, err)
		}
		for _, leak := range []string{"secret", "10.1", "ftp", "8080", "a.example", "41"} {
			if strings.Contains(b.Rule, leak) {
				t.Errorf("%s: rule %q carries %q", raw, b.Rule, leak)
			}
		}
	}
}
