package guard

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"time"
)

// VettedDialer connects to a vetted URL's addresses and nowhere else;
// *Checker is one.
type VettedDialer interface {
	Dial(ctx context.Context, v *Vetted) (net.Conn, error)
}

type vettedKey struct{}

// WithVetted returns ctx carrying v: a request made with it goes through a
// transport from NewTransport to v's addresses only. The transport is
// shared by every request, so the vetted addresses travel with the request
// rather than in the transport.
func WithVetted(ctx context.Context, v *Vetted) context.Context {
	return context.WithValue(ctx, vettedKey{}, v)
}

// TransportOptions are what callers of NewTransport tune; the zero value
// is a plain vetted transport.
type TransportOptions struct {
	// MaxResponseHeaderBytes bounds a response's header; 0 is net/http's
	// default.
	MaxResponseHeaderBytes int64
	// DisableCompression leaves Accept-Encoding and decoding to the
	// caller, which can then bound the decoded body itself.
	DisableCompression bool
	// MaxIdleConnsPerHost is net/http's; 0 is its default.
	MaxIdleConnsPerHost int
	// WrapConn, when set, wraps each new connection (fetch counts the
	// bytes on the wire).
	WrapConn func(net.Conn) net.Conn
}

// NewTransport returns the transport through which sift reaches outside.
// It ignores proxy settings and dials, through d, only the vetted URL the
// request's context carries (WithVetted), never the address the URL names
// (which a second lookup might answer differently); a request without one
// fails before any connection.
func NewTransport(d VettedDialer, o TransportOptions) *http.Transport {
	return &http.Transport{
		Proxy: nil, // never through a proxy from the environment
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			v, ok := ctx.Value(vettedKey{}).(*Vetted)
			if !ok {
				return nil, errors.New("guard: dial without a vetted target")
			}
			conn, err := d.Dial(ctx, v)
			if err != nil || o.WrapConn == nil {
				return conn, err
			}
			return o.WrapConn(conn), nil
		},
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    5 * time.Second,
		MaxResponseHeaderBytes: o.MaxResponseHeaderBytes,
		DisableCompression:     o.DisableCompression,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    o.MaxIdleConnsPerHost,
		IdleConnTimeout:        30 * time.Second,
	}
}

// NewClient returns an HTTP client for calls sift makes on its own
// account (search backends, embeddings): each request's URL is vetted by
// c and dialled only to the vetted addresses, and a redirect is returned,
// not followed. A service on an internal address is reachable only when
// c's policy allows it on purpose.
func NewClient(c *Checker, timeout time.Duration, o TransportOptions) *http.Client {
	return &http.Client{
		Timeout:       timeout,
		Transport:     &vettingTransport{checker: c, inner: NewTransport(c, o)},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// vettingTransport vets each request's URL before the transport dials.
type vettingTransport struct {
	checker *Checker
	inner   http.RoundTripper
}

func (v *vettingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t, err := v.checker.Vet(req.Context(), req.URL.String())
	if err != nil {
		return nil, err
	}
	return v.inner.RoundTrip(req.WithContext(WithVetted(req.Context(), t)))
}
