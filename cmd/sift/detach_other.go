//go:build !unix

package main

import "os/exec"

// detach does nothing here: warm extractors need Unix sockets, so none is
// started.
func detach(*exec.Cmd) {}
