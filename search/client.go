package search

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/guard"
)

// NewClient returns the HTTP client backends use: every request is vetted
// by the guard under p and dialled only to the vetted addresses, so a
// backend on loopback (a local SearXNG) needs p to allow it on purpose.
func NewClient(p *guard.Policy, timeout time.Duration) *http.Client {
	checker := guard.NewChecker(p, net.DefaultResolver)
	inner := &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			t, ok := ctx.Value(vettedKey{}).(*stages.Target)
			if !ok {
				return nil, errors.New("search: dial without a vetted target")
			}
			return checker.Dial(ctx, t)
		},
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     30 * time.Second,
	}
	return &http.Client{
		Timeout:   timeout,
		Transport: &vettingTransport{checker: checker, inner: inner},
		// Backends answer directly; a redirect is not followed.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

type vettedKey struct{}

// vettingTransport vets each request's URL before the transport dials.
type vettingTransport struct {
	checker *guard.Checker
	inner   http.RoundTripper
}

func (v *vettingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t, err := v.checker.Vet(req.Context(), req.URL.String())
	if err != nil {
		return nil, err
	}
	return v.inner.RoundTrip(req.WithContext(context.WithValue(req.Context(), vettedKey{}, t)))
}
