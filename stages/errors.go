package stages

import (
	"fmt"

	"github.com/siftd/sift/errclass"
)

// Error is a stage failure. It names the stage and, where a plugin did the
// work, the plugin: "stage extract (pdf): …".
type Error struct {
	Stage  string
	Plugin string
	Err    error
}

// Error formats the failure with its stage and plugin.
func (e *Error) Error() string {
	if e.Plugin != "" {
		return fmt.Sprintf("stage %s (%s): %v", e.Stage, e.Plugin, e.Err)
	}
	return fmt.Sprintf("stage %s: %v", e.Stage, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// PluginError tags err with the plugin that produced it; the runner adds the
// stage name.
func PluginError(plugin string, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Plugin: plugin, Err: err}
}

// stageError prefixes err with the stage name, keeping a plugin tag.
func stageError(stage string, err error) error {
	if se, ok := err.(*Error); ok && se.Stage == "" {
		se.Stage = stage
		return se
	}
	return &Error{Stage: stage, Err: err}
}

// ErrStorage is what a caller learns of a database failure where it costs
// more than the cache (a batch call): its driver's message names the
// database's address, user and database, which are not the caller's to
// know. It asks the client to come back after StorageRetryAfter.
var ErrStorage = &errclass.Error{Class: errclass.Unavailable, Msg: "storage unavailable", RetryAfter: StorageRetryAfter}

// StorageRetryAfter is the Retry-After, in seconds, of a storage outage:
// about what a PostgreSQL restart takes.
const StorageRetryAfter = 5
