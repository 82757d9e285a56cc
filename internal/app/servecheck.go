package app

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
)

// CheckServe refuses a file sift cannot serve on, whatever its chain: the
// development key beyond loopback, and a file without a caller block. No
// route but /healthz and /metrics answers without a caller's key, so such
// a file would answer every request 401; it is what an emptied or cut-off
// file decodes to, and a reload must not swap it in. serve (at start and
// on every reload) and validate run it.
func CheckServe(cfg *config.Config) hcl.Diagnostics {
	diags := CheckDevKey(cfg)
	switch {
	case cfg.Empty():
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Empty configuration",
			Detail: fmt.Sprintf("%s sets nothing (it is empty, or holds only comments): sift would answer every request "+
				"401 unauthorized, with no cache. Write the configuration out; `sift validate FILE` checks it.", cfg.File)})
	case len(cfg.Callers) == 0:
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No caller block",
			Detail: fmt.Sprintf("%s declares no caller, so sift would answer every request but /healthz and /metrics "+
				"401 unauthorized (a file cut short reads this way). Add a caller block; `sift key new NAME` prints one.", cfg.File)})
	}
	return diags
}
