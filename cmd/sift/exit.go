package main

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/siftd/sift/errclass"
	"github.com/siftd/sift/plugins/sdk"
)

// exitCoder is an error that sets sift's exit code.
type exitCoder interface {
	error
	ExitCode() int
}

// exitCode is the code sift exits with after err: the one the error
// carries, else 1.
func exitCode(err error) int {
	var ec exitCoder
	if errors.As(err, &ec) {
		return ec.ExitCode()
	}
	return 1
}

// classExit is a failure whose exit code is its row's in errclass's table.
type classExit struct {
	err error
	row errclass.Row
}

func (e *classExit) Error() string { return e.err.Error() }
func (e *classExit) Unwrap() error { return e.err }

// ExitCode is the row's exit code.
func (e *classExit) ExitCode() int { return e.row.Exit }

// withClassExit gives err the exit code of the class sift's message starts
// with ("blocked: …"); a message of no class keeps exit code 1.
func withClassExit(err error, message string) error {
	if c, ok := errclass.FromMessage(message); ok {
		return &classExit{err: err, row: errclass.Get(c)}
	}
	return err
}

// withAnswerExit gives err, sift's answer of status saying message, the
// exit code of the class message starts with. A 422 of a class the table
// does not list is a document's, of the extractor's own (the pdf
// extractor's encrypted, empty): errclass.Document gives it the row of an
// invalid document, as the answer's status and `sift extract` do.
func withAnswerExit(err error, status int, message string) error {
	head, _, found := strings.Cut(message, ":")
	if _, known := errclass.FromMessage(message); !known && found && status == http.StatusUnprocessableEntity && isClassName(head) {
		return &classExit{err: err, row: errclass.Document(errclass.Class(head))}
	}
	return withClassExit(err, message)
}

// isClassName reports whether s could name an error class: lower-case
// letters and underscores.
func isClassName(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz_") == ""
}

// withErrorExit gives err the exit code of its class: a document's class,
// the class an error names, else the class its text starts with.
func withErrorExit(err error) error {
	var de *sdk.DocError
	if errors.As(err, &de) {
		// errclass.Document gives a class of the plugin's own (encrypted,
		// …) the row of an invalid document, as the HTTP answer does.
		return &classExit{err: err, row: errclass.Document(errclass.Class(de.Class))}
	}
	if c, ok := errclass.Of(err); ok {
		return &classExit{err: err, row: errclass.Get(c)}
	}
	return withClassExit(err, err.Error())
}

// originExit is the exit of a fetch whose origin answered an error status:
// the page was printed, and the exit code says 4xx or 5xx.
func originExit(status int) error {
	if status < 400 {
		return nil
	}
	c := errclass.Origin4xx
	if status >= 500 {
		c = errclass.Origin5xx
	}
	return &classExit{err: fmt.Errorf("the origin answered %d %s", status, http.StatusText(status)), row: errclass.Get(c)}
}
