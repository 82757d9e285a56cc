package host

import "github.com/siftd/sift/errclass"

// Errors a plugin call can end with besides the plugin's own DocError,
// each of its class in errclass's table.
var (
	// ErrFailed means the plugin answered the call with an error of its
	// own (a bug, or a panic the SDK recovered); the process is kept.
	ErrFailed = errclass.New(errclass.ExtractorFailed, "plugin failed")
	// ErrCrashed means the plugin process died during the call.
	ErrCrashed = errclass.New(errclass.ExtractorFailed, "plugin crashed")
	// ErrOutOfMemory means the plugin process died of its memory limit
	// while reading the document: the document needs more memory than the
	// block gives, which a retry does not change.
	ErrOutOfMemory = errclass.New(errclass.TooLarge, "plugin out of memory")
	// ErrTimeout means the call outlived its deadline; the process was
	// killed and replaced.
	ErrTimeout = errclass.New(errclass.Timeout, "plugin timed out")
	// ErrReplyTooLarge means the plugin's reply exceeded the message limit.
	ErrReplyTooLarge = errclass.New(errclass.ExtractorFailed, "plugin reply too large")
	// ErrClosed means the pool was shut down.
	ErrClosed = errclass.New(errclass.Internal, "plugin pool closed")
	// ErrUnavailable means no process could be started.
	ErrUnavailable = errclass.New(errclass.ExtractorFailed, "plugin unavailable")
)
