package guard

import (
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"

	"github.com/siftd/sift/errclass"
)

// ErrBlocked is matched by every refusal (errors.Is).
var ErrBlocked = errclass.New(errclass.Blocked, "blocked")

// Blocked is a policy refusal. Its text starts "blocked: " and names the
// reason, so an agent knows retrying cannot help.
type Blocked struct {
	// Rule names the rule that refused, without the URL's own text
	// ("private address", "port not allowed"): a bounded label for metrics.
	Rule   string
	Reason string
}

// Error returns "blocked: " and the reason.
func (b *Blocked) Error() string { return "blocked: " + b.Reason }

// ErrorClass is blocked.
func (b *Blocked) ErrorClass() errclass.Class { return errclass.Blocked }

// Is makes errors.Is(err, ErrBlocked) true for every refusal.
func (b *Blocked) Is(target error) bool { return target == ErrBlocked }

// Refuse returns a policy refusal ("blocked: " and the reason) for checks
// made outside this package, such as a redirect that downgrades https.
func Refuse(format string, args ...any) error {
	return blocked(format, args...)
}

// blocked builds a refusal; its rule is the format without its verbs, so
// no part of the URL reaches a metric label.
func blocked(format string, args ...any) error {
	return &Blocked{Rule: ruleOf(format), Reason: fmt.Sprintf(format, args...)}
}

var verbs = regexp.MustCompile(`\s*%[a-zA-Z]\s*|[():]`)

func ruleOf(format string) string {
	return strings.Join(strings.Fields(verbs.ReplaceAllString(format, " ")), " ")
}

// Resolution failures are not policy refusals: ErrNoSuchHost is a name
// that does not exist or has no address (retrying cannot help),
// ErrResolveFailed a resolver that failed (SERVFAIL, a timeout: a retry
// may succeed). Both match an *Unresolved (errors.Is).
var (
	ErrNoSuchHost    = errclass.New(errclass.NoSuchHost, "no such host")
	ErrResolveFailed = errclass.New(errclass.DNSFailed, "name resolution failed")
)

// Unresolved is a host name the guard could not resolve, so nothing was
// dialled.
type Unresolved struct {
	Host string
	// NotFound is NXDOMAIN or an answer with no address.
	NotFound bool
	Err      error
}

// Error names the host and what the resolver said.
func (u *Unresolved) Error() string {
	if u.NotFound {
		return "the name " + u.Host + " does not exist or has no address"
	}
	return fmt.Sprintf("resolving %s failed: %v", u.Host, u.Err)
}

// ErrorClass is no_such_host or dns_failed, whichever u is.
func (u *Unresolved) ErrorClass() errclass.Class {
	if u.NotFound {
		return errclass.NoSuchHost
	}
	return errclass.DNSFailed
}

// Is matches ErrNoSuchHost or ErrResolveFailed, whichever u is.
func (u *Unresolved) Is(target error) bool {
	if u.NotFound {
		return target == ErrNoSuchHost
	}
	return target == ErrResolveFailed
}

// unresolved classifies a lookup error for host.
func unresolved(host string, err error) error {
	var de *net.DNSError
	notFound := errors.As(err, &de) && de.IsNotFound
	return &Unresolved{Host: host, NotFound: notFound, Err: err}
}
