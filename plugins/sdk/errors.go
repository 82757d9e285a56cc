package sdk

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/hashicorp/go-hclog"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Error classes a plugin reports for a bad document. sift answers each with
// the status of its error table (invalid → 422, bad_option → 400,
// unsupported → 415, too_large → 413); a class it does not know is answered
// as invalid is, under its own name.
const (
	ClassInvalid = "invalid"
	// ClassBadOption is a per-request option that is malformed or does not
	// fit the document (pages "7" of a 5-page PDF): the request is wrong,
	// not the document.
	ClassBadOption   = "bad_option"
	ClassUnsupported = "unsupported"
	ClassTooLarge    = "too_large"
)

// DocError reports that a document cannot be converted. It travels as a
// field of the reply, so the host can tell a bad document from a broken
// plugin.
type DocError struct {
	Class   string
	Message string
}

// Error formats the error as "class: message".
func (e *DocError) Error() string { return e.Class + ": " + e.Message }

// Invalid returns a DocError of class "invalid".
func Invalid(format string, args ...any) *DocError {
	return &DocError{Class: ClassInvalid, Message: fmt.Sprintf(format, args...)}
}

// Unsupported returns a DocError of class "unsupported".
func Unsupported(format string, args ...any) *DocError {
	return &DocError{Class: ClassUnsupported, Message: fmt.Sprintf(format, args...)}
}

// BadOption returns a DocError of class "bad_option": a per-request option
// that is malformed or does not fit the document.
func BadOption(format string, args ...any) *DocError {
	return &DocError{Class: ClassBadOption, Message: fmt.Sprintf(format, args...)}
}

// TooLarge returns a DocError of class "too_large".
func TooLarge(format string, args ...any) *DocError {
	return &DocError{Class: ClassTooLarge, Message: fmt.Sprintf(format, args...)}
}

// recoverCall turns a panic of the implementation into the call's error, so
// one bad document costs its one request a plugin error instead of killing
// the process and every call it serves. The panic and its stack go to log
// at error level: go-plugin passes the plugin's stderr to the host only
// through the plugin's logger (plain writes to os.Stderr go to a pipe the
// host discards), and the host keeps an entry's level.
func recoverCall(log hclog.Logger, method string, err *error) {
	if r := recover(); r != nil {
		if log == nil {
			log = newLogger(os.Stderr)
		}
		log.Error(fmt.Sprintf("plugin panicked in %s: %v", method, r), "stack", string(debug.Stack()))
		*err = status.Errorf(codes.Internal, "plugin panicked in %s: %v", method, r)
	}
}

func asDocError(err error) (*DocError, bool) {
	var de *DocError
	if errors.As(err, &de) {
		return de, true
	}
	return nil, false
}
