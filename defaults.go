// Package sift holds what the whole module shares: the development key
// of the default configuration. The default configuration itself is
// config.Default.
package sift

// DevKey is the development key the default configuration's caller
// "local" holds. sift refuses to listen beyond loopback while it is
// configured.
const DevKey = "sift-dev-key"
