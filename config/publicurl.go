package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// publicURL decodes public_url, or derives it from the listen address.
func publicURL(expr hcl.Expression, listen string, diags hcl.Diagnostics) (string, hcl.Diagnostics) {
	if isUnset(expr) {
		return DefaultPublicURL(listen), diags
	}
	raw, diags := optString(expr, "", diags)
	base, err := ParsePublicURL(raw)
	if err != nil {
		return DefaultPublicURL(listen), append(diags, attrError(expr.Range().Ptr(), "Invalid public_url", err.Error()+"."))
	}
	return base, diags
}

// ParsePublicURL checks a public base URL and returns it without a
// trailing slash: http or https, a host, an optional path prefix, and no
// credentials, query or fragment.
func ParsePublicURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", err
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("public_url must start with http:// or https://, got %q", raw)
	case u.Host == "" || u.Hostname() == "":
		return "", fmt.Errorf("public_url must name a host, got %q", raw)
	case u.User != nil, u.RawQuery != "", u.ForceQuery, u.Fragment != "":
		return "", errors.New("public_url must be a scheme, a host and at most a path prefix: no credentials, query or fragment")
	}
	return strings.TrimRight(u.Scheme+"://"+u.Host+u.EscapedPath(), "/"), nil
}

// DefaultPublicURL is the public URL of a server listening on listen:
// http:// and that address, with loopback standing in for a wildcard
// host (0.0.0.0, ::), which no client can reach by name.
func DefaultPublicURL(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "http://" + DefaultListen
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}
