package fetch

import "errors"

// Error classes of a failed fetch. Each tells the agent whether a retry can
// help: too large and too many redirects will not change; timeouts and
// upstream failures may.
var (
	// ErrTooLarge: the body, decoded or not, is over max_body.
	ErrTooLarge = errors.New("too_large")
	// ErrTimeout: the origin did not answer in full within the timeout.
	ErrTimeout = errors.New("timeout")
	// ErrRedirects: more than MaxRedirects redirects, or a redirect sift
	// will not follow.
	ErrRedirects = errors.New("redirects")
	// ErrUpstream: the connection or the HTTP exchange failed.
	ErrUpstream = errors.New("upstream")
	// ErrContentType: the body contradicts its Content-Type.
	ErrContentType = errors.New("content_type")
)
