package fetch

import "github.com/siftd/sift/errclass"

// Error classes of a failed fetch. Each tells the agent whether a retry can
// help: too large and too many redirects will not change; timeouts and
// upstream failures may.
var (
	// ErrTooLarge: the body, decoded or not, is over max_body.
	ErrTooLarge = errclass.New(errclass.TooLarge, "too_large")
	// ErrTimeout: the origin did not answer in full within the timeout.
	ErrTimeout = errclass.New(errclass.Timeout, "timeout")
	// ErrRedirects: more than MaxRedirects redirects, or a redirect sift
	// will not follow.
	ErrRedirects = errclass.New(errclass.Redirects, "redirects")
	// ErrUpstream: the connection or the HTTP exchange failed.
	ErrUpstream = errclass.New(errclass.Upstream, "upstream")
	// ErrContentType: the body contradicts its Content-Type.
	ErrContentType = errclass.New(errclass.ContentType, "content_type")
)
