// Package sift holds what the whole module shares: the default
// configuration and its development key.
package sift

import _ "embed"

// DevKey is the development key the default configuration's caller
// "local" holds. sift refuses to listen beyond loopback while it is
// configured.
const DevKey = "sift-dev-key"

// DefaultConfig is the repository's config.hcl, embedded: the
// configuration sift uses when no --config is given and ./config.hcl does
// not exist. `make run` serves the same file from disk, so an edit of it
// needs no rebuild there, and the next build embeds the edit.
//
//go:embed config.hcl
var DefaultConfig []byte
