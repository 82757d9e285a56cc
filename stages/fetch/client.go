package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/siftd/sift/stages"
	"github.com/siftd/sift/stages/guard"
)

// client makes the HTTP exchanges of one fetch stage. It shares one
// transport, whose dialer connects only to the addresses the guard vetted
// for the request in flight.
type client struct {
	cfg       Config
	guard     stages.URLGuard
	userAgent string
	transport *http.Transport
}

type targetKey struct{}

func newClient(cfg Config, g stages.URLGuard, userAgent string) *client {
	c := &client{cfg: cfg, guard: g, userAgent: userAgent}
	c.transport = &http.Transport{
		Proxy:                  nil, // never through a proxy from the environment
		DialContext:            c.dial,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    5 * time.Second,
		MaxResponseHeaderBytes: cfg.MaxHeader,
		DisableCompression:     true, // decoded here, under the size cap
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           64,
		IdleConnTimeout:        30 * time.Second,
	}
	return c
}

// dial connects to the target carried by the request's context; the
// address the transport names is not trusted, the vetted one is.
func (c *client) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	t, ok := ctx.Value(targetKey{}).(*stages.Target)
	if !ok {
		return nil, errors.New("fetch: dial without a vetted target")
	}
	conn, err := c.guard.Dial(ctx, t)
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: conn}, nil
}

// fetch requests the target, following redirects by hand: each hop is
// vetted by the guard as a new URL, and https never leads to http.
func (c *client) fetch(ctx context.Context, target *stages.Target) (*stages.Response, error) {
	for hop := 0; ; hop++ {
		f := &framing{}
		resp, err := c.exchange(f.trace(ctx), target)
		if err != nil {
			return nil, err
		}
		loc := resp.Header.Get("Location")
		if !isRedirect(resp.StatusCode) || loc == "" {
			return c.read(resp, target, f)
		}
		resp.Body.Close()
		if hop == MaxRedirects {
			return nil, fmt.Errorf("%w: more than %d redirects", ErrRedirects, MaxRedirects)
		}
		if target, err = c.nextHop(ctx, target, loc); err != nil {
			return nil, err
		}
	}
}

func (c *client) nextHop(ctx context.Context, from *stages.Target, location string) (*stages.Target, error) {
	if strings.ContainsRune(location, '\\') {
		return nil, guard.Refuse("redirect Location with a backslash")
	}
	base, err := url.Parse(from.URL)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRedirects, err)
	}
	next, err := base.Parse(location)
	if err != nil {
		return nil, fmt.Errorf("%w: malformed Location: %v", ErrRedirects, err)
	}
	if base.Scheme == "https" && next.Scheme == "http" {
		return nil, guard.Refuse("redirect from https to http")
	}
	return c.guard.Vet(ctx, next.String())
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// exchange sends one GET with sift's fixed headers: no cookies, no
// credentials, nothing of the caller's.
func (c *client) exchange(ctx context.Context, target *stages.Target) (*http.Response, error) {
	req, err := http.NewRequestWithContext(context.WithValue(ctx, targetKey{}, target), http.MethodGet, target.URL, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpstream, err)
	}
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/json;q=0.9,text/*;q=0.8,*/*;q=0.5")
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := c.transport.RoundTrip(req)
	if err != nil {
		return nil, classify(ctx, err)
	}
	return resp, nil
}

// classify keeps policy refusals and timeouts as they are and files
// everything else as an upstream failure.
func classify(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, guard.ErrBlocked):
		var b *guard.Blocked
		errors.As(err, &b)
		return b
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return fmt.Errorf("%w: %v", ErrUpstream, err)
}
