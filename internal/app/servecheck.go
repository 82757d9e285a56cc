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
//
// It checks the environment too (CheckEnvironment); CheckFileServe is the
// same without it.
func CheckServe(cfg *config.Config) hcl.Diagnostics {
	return append(CheckFileServe(cfg), CheckEnvironment(cfg)...)
}

// CheckFileServe is CheckServe of the file alone, for a file checked away
// from where sift will run (the NixOS module's build).
func CheckFileServe(cfg *config.Config) hcl.Diagnostics {
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

// CheckEnvironment checks the variables the file names for secrets, as
// serve will read them: an unset PostgreSQL DSN is an error (serve cannot
// open its store), an unset search or context key a warning (every search
// of that backend would be refused; Honcho would get no token). Each
// names the block that names the variable.
func CheckEnvironment(cfg *config.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, v := range cfg.Environment {
		if v.Set {
			continue
		}
		rng := v.Range
		d := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Environment variable not set", Subject: &rng,
			Detail: fmt.Sprintf("%s names %s, which is not set (or empty) in this environment: ", v.Attr, v.Name)}
		switch {
		case v.Required:
			d.Severity = hcl.DiagError
			d.Detail += "sift cannot open its store without it. Set it where sift runs (systemd: EnvironmentFile or a credential)."
		case v.Attr == "context.api_key_env":
			d.Detail += "Honcho is asked without a token."
		default:
			d.Detail += "the backend refuses every search. Set it where sift runs (systemd: EnvironmentFile or a credential)."
		}
		diags = append(diags, d)
	}
	return diags
}
