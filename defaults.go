// Package sift holds what the whole module shares: the default
// configuration, embedded so the binary runs without a file.
package sift

import _ "embed"

// DefaultConfig is the shipped config.hcl.
//
//go:embed config.hcl
var DefaultConfig []byte

// DevKey is the development key the default configuration's caller
// "local" holds. sift refuses to listen beyond loopback while it is
// configured.
const DevKey = "sift-dev-key"
