//go:build unix

package store

import "syscall"

// noFollow makes opening a symlink fail.
const noFollow = syscall.O_NOFOLLOW
