package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"testing"

	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/internal/testkit/dnstest"
	"github.com/siftd/sift/stages"
)

// loopbackOnly dials loopback addresses only, so a hop the guard wrongly
// admits fails the test instead of leaving the machine.
type loopbackOnly struct{ stages.URLGuard }

func (g loopbackOnly) Dial(ctx context.Context, t *stages.Target) (net.Conn, error) {
	for _, a := range t.Addrs {
		if !a.IsLoopback() {
			return nil, fmt.Errorf("the guard admitted %s (%s) for dialling", a, t.URL)
		}
	}
	return g.URLGuard.Dial(ctx, t)
}

// A redirect to a non-global IPv6 address, as a literal (plain or
// protocol-relative) or as a name whose AAAA record is one, is refused
// before any connection.
func TestRedirectToNonGlobalIPv6(t *testing.T) {
	locations := map[string]string{
		"/siit":          "http://[::ffff:0:a00:1]/",
		"/siit-relative": "//[::ffff:0:7f00:1]/",
		"/outside":       "http://[4000::1]/",
		"/outside-rel":   "//[8000::1]/",
		"/compat":        "http://[::2:0:0:1]/",
		"/srv6":          "//[5f00::1]/",
		"/dummy":         "http://[100:0:0:1::1]/",
		"/aaaa":          "http://bad-aaaa.sift.test/",
		"/aaaa-relative": "//bad-aaaa.sift.test/",
		"/dual":          "http://dual.sift.test/",
	}
	hops := newOrigin(t, false, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, locations[r.URL.Path], http.StatusFound)
	})
	resolver := dnstest.Records(t, map[string][]string{
		"bad-aaaa.sift.test": {"4000::1"},
		"dual.sift.test":     {"93.184.216.34", "::ffff:0:a00:1"},
	})
	p := guard.DefaultPolicy()
	p.AllowCIDRs = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	p.AllowPorts = append(p.AllowPorts, hops.port())
	cfg := defaults()
	s := &Stage{cfg: cfg, client: newClient(cfg, loopbackOnly{guard.NewChecker(p, resolver)}, "sift/test")}
	for path, loc := range locations {
		t.Run(path, func(t *testing.T) {
			_, err := run(t, s, hops.srv.URL+path)
			if !errors.Is(err, guard.ErrBlocked) {
				t.Fatalf("redirect to %s: err = %v, want a refusal", loc, err)
			}
		})
	}
}
