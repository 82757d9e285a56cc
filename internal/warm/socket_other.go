//go:build !unix

package warm

import (
	"errors"
	"net"
)

var errUnsupported = errors.New("warm extractors need Unix sockets")

// Dir reports that warm extractors are not available here.
func Dir() (string, error) { return "", errUnsupported }

// Listen reports that warm extractors are not available here.
func Listen(string) (net.Listener, func(), error) { return nil, nil, errUnsupported }

// Dial reports that warm extractors are not available here.
func Dial(string) (net.Conn, error) { return nil, errUnsupported }
