//go:build !linux

package diskfault

import (
	"errors"
	"testing"
)

// ErrCannotMount is returned where this process may not mount a file
// system: everywhere but Linux.
var ErrCannotMount = errors.New("diskfault: mounting a disk to break needs Linux")

// Disk is a file system of its own mounted at Dir.
type Disk struct{ Dir string }

// Small cannot mount here.
func Small(testing.TB, int64) (*Disk, error) { return nil, ErrCannotMount }

// Breakable cannot mount here.
func Breakable(testing.TB) (*Disk, error) { return nil, ErrCannotMount }

// Break does nothing: no Disk exists here.
func (d *Disk) Break(testing.TB) {}

// Fill does nothing: no Disk exists here.
func (d *Disk) Fill(testing.TB) {}

// Free does nothing: no Disk exists here.
func (d *Disk) Free(testing.TB) {}

// LimitFileSize is Linux's alone.
func LimitFileSize(int, int64) error { return ErrCannotMount }
