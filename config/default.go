package config

import _ "embed"

// Default is the configuration sift uses when no --config is given and
// ./config.hcl does not exist. It is a copy of the repository's config.hcl,
// which `make run` serves from disk, so editing that file needs no rebuild;
// TestDefaultMatchesShippedConfig keeps the two identical.
//
//go:embed default.hcl
var Default []byte

// DefaultName names the embedded default in diagnostics.
const DefaultName = "(embedded) config/default.hcl"
