package guard

import (
	"crypto/tls"
	"net"
	"net/http"
	"time"
)

// NewOperatorClient returns the HTTP client for the endpoints the operator
// names in the configuration (the digester's LLM server, Honcho, the health
// probes of both), the one exception to the vetted transport: such an
// endpoint is often on the private network on purpose, so its address is
// not checked against the guard's policy. What makes it safe is that no
// agent steers the URL, and the client keeps it that way: a redirect is
// returned to the caller, never followed (an answer cannot send sift
// elsewhere), and proxy settings from the environment are ignored, as
// they are by NewTransport. timeout bounds a whole request; 0 leaves it to
// the request's context.
//
// A URL an agent chose never goes through this client: only through
// NewTransport or NewClient.
func NewOperatorClient(timeout time.Duration) *http.Client {
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:                 nil, // never through a proxy from the environment
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout:   5 * time.Second,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          16,
			IdleConnTimeout:       90 * time.Second,
			ExpectContinueTimeout: time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
