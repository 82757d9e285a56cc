package stages

import "fmt"

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
