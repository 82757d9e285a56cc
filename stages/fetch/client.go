package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/siftd/sift/guard"
	"github.com/siftd/sift/stages"
)

// client makes the HTTP exchanges of one fetch stage. It shares one
// vetted transport, which dials only the addresses the guard vetted for
// the request in flight.
type client struct {
	cfg       Config
	guard     stages.URLGuard
	userAgent string
	transport *http.Transport
}

func newClient(cfg Config, g stages.URLGuard, userAgent string) *client {
	return &client{cfg: cfg, guard: g, userAgent: userAgent, transport: guard.NewTransport(g, guard.TransportOptions{
		MaxResponseHeaderBytes: cfg.MaxHeader,
		DisableCompression:     true, // decoded here, under the size cap
		WrapConn:               func(conn net.Conn) net.Conn { return &countingConn{Conn: conn} },
	})}
}

// fetch requests the target, following redirects by hand: each hop is
// vetted by the guard as a new URL, and https never leads to http. The
// request for v's URL is conditional on v's validators; a 304 to it is
// returned as it is, without a body, and notModified set.
func (c *client) fetch(ctx context.Context, target *stages.Target, v *stages.Validators) (resp *stages.Response, notModified bool, err error) {
	for hop := 0; ; hop++ {
		f := &framing{}
		cond := v
		if cond != nil && cond.URL != target.URL {
			cond = nil
		}
		resp, err := c.exchange(f.trace(ctx), target, cond)
		if err != nil {
			return nil, false, err
		}
		if cond != nil && resp.StatusCode == http.StatusNotModified {
			resp.Body.Close()
			header := resp.Header.Clone()
			header.Del("Set-Cookie")
			return &stages.Response{FinalURL: target.URL, Status: resp.StatusCode, Header: header, FetchedAt: time.Now().UTC()}, true, nil
		}
		loc := resp.Header.Get("Location")
		if !isRedirect(resp.StatusCode) || loc == "" {
			out, err := c.read(resp, target, f)
			return out, false, err
		}
		resp.Body.Close()
		if hop == MaxRedirects {
			return nil, false, fmt.Errorf("%w: more than %d redirects", ErrRedirects, MaxRedirects)
		}
		if target, err = c.nextHop(ctx, target, loc); err != nil {
			return nil, false, err
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
// credentials, nothing of the caller's; conditional on cond's validators
// when it is set.
func (c *client) exchange(ctx context.Context, target *stages.Target, cond *stages.Validators) (*http.Response, error) {
	req, err := http.NewRequestWithContext(guard.WithVetted(ctx, target), http.MethodGet, target.URL, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUpstream, err)
	}
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/json;q=0.9,text/*;q=0.8,*/*;q=0.5")
	req.Header.Set("Accept-Encoding", "gzip")
	if cond != nil && cond.ETag != "" {
		req.Header.Set("If-None-Match", cond.ETag)
	}
	if cond != nil && cond.LastModified != "" {
		req.Header.Set("If-Modified-Since", cond.LastModified)
	}
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
