//go:build !unix

package store

const noFollow = 0
