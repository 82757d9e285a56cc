package guard

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"
)

// noResolver resolves nothing: the tests name IP literals.
type noResolver struct{}

func (noResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return nil, errors.New("no resolver in this test")
}

// loopbackPolicy admits the loopback test server on its port.
func loopbackPolicy(t *testing.T, srv *httptest.Server) *Policy {
	t.Helper()
	ap := netip.MustParseAddrPort(srv.Listener.Addr().String())
	p := DefaultPolicy()
	p.AllowPorts = append(p.AllowPorts, int(ap.Port()))
	p.AllowCIDRs = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	return p
}

// The client vets each request: refused under the default policy,
// reached once the policy admits loopback, and a redirect is returned, not
// followed.
func TestClientVetsEachRequest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "http://10.0.0.5/", http.StatusFound)
			return
		}
		w.Write([]byte("ok"))
	}))
	t.Cleanup(srv.Close)

	refused := NewClient(NewChecker(DefaultPolicy(), noResolver{}), 10*time.Second, TransportOptions{})
	if _, err := refused.Get(srv.URL); !errors.Is(err, ErrBlocked) {
		t.Fatalf("loopback under the default policy: %v", err)
	}

	allowed := NewClient(NewChecker(loopbackPolicy(t, srv), noResolver{}), 10*time.Second, TransportOptions{})
	resp, err := allowed.Get(srv.URL)
	if err != nil {
		t.Fatalf("loopback allowed on purpose: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	resp, err = allowed.Get(srv.URL + "/moved")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("redirect followed: status %d", resp.StatusCode)
	}
}

// The transport dials the vetted addresses the request carries, never the
// URL's host, and refuses a request that carries none.
func TestTransportDialsOnlyTheVetted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) }))
	t.Cleanup(srv.Close)
	ap := netip.MustParseAddrPort(srv.Listener.Addr().String())
	checker := NewChecker(loopbackPolicy(t, srv), noResolver{})
	tr := NewTransport(checker, TransportOptions{})
	t.Cleanup(tr.CloseIdleConnections)

	// The URL names a host that resolves nowhere; the vetted address is
	// the one dialled.
	url := "http://elsewhere.test:" + strconv.Itoa(int(ap.Port())) + "/"
	v := &Vetted{URL: url, Host: "elsewhere.test", Port: int(ap.Port()), Addrs: []netip.Addr{ap.Addr()}}
	req, _ := http.NewRequestWithContext(WithVetted(context.Background(), v), http.MethodGet, url, nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatalf("vetted request: %v", err)
	}
	resp.Body.Close()

	req, _ = http.NewRequest(http.MethodGet, srv.URL, nil)
	if _, err := tr.RoundTrip(req); err == nil || !strings.Contains(err.Error(), "without a vetted target") {
		t.Fatalf("request without a vetted target: %v", err)
	}
}
