package host

import "errors"

// Errors a plugin call can end with besides the plugin's own DocError. The
// server maps them to statuses: crashed and reply-too-large → 502, timeout →
// 504, busy → 429.
var (
	// ErrFailed means the plugin answered the call with an error of its
	// own (a bug, or a panic the SDK recovered); the process is kept.
	ErrFailed = errors.New("plugin failed")
	// ErrCrashed means the plugin process died during the call.
	ErrCrashed = errors.New("plugin crashed")
	// ErrTimeout means the call outlived its deadline; the process was
	// killed and replaced.
	ErrTimeout = errors.New("plugin timed out")
	// ErrReplyTooLarge means the plugin's reply exceeded the message limit.
	ErrReplyTooLarge = errors.New("plugin reply too large")
	// ErrClosed means the pool was shut down.
	ErrClosed = errors.New("plugin pool closed")
	// ErrUnavailable means no process could be started.
	ErrUnavailable = errors.New("plugin unavailable")
)
