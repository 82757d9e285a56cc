package config

import "github.com/siftd/sift"

// Default is the configuration sift uses when no --config is given and
// ./config.hcl does not exist: the repository's config.hcl, embedded by
// the root package.
var Default = sift.DefaultConfig

// DefaultName names the embedded default in diagnostics.
const DefaultName = "(embedded) config.hcl"
