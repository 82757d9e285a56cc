package app

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
)

// servingKinds are the stages every request needs: a chain without one of
// them validates as a chain but answers every request with an error.
var servingKinds = []string{"guard", "fetch", "extract"}

// defaultPipeline is the chain to paste when a file has none: the shipped
// configuration's, cache included.
const defaultPipeline = `pipeline {
  stage "guard" {}
  stage "fetch" {}
  stage "extract" {}
  stage "cache" {}
}`

// CheckChain refuses a chain that cannot serve: an empty pipeline block,
// one without a guard, fetch or extract stage, and a digest or context
// stage whose digester or context block the file does not declare. A file
// with no pipeline block runs guard, fetch, extract, with a warning, since
// that chain has no cache. serve and validate both run it.
func CheckChain(cfg *config.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if cfg.Pipeline == nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagWarning,
			Summary:  "No pipeline block",
			Detail: fmt.Sprintf("without one sift runs %s, with no cache. Write the chain out to keep it, for example:\n\n%s",
				strings.Join(defaultStages, ", "), defaultPipeline),
		}}
	}
	if len(cfg.Stages) == 0 {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Empty pipeline",
			Detail:   "an empty pipeline cannot answer a request. List its stages, for example:\n\n" + defaultPipeline,
			Subject:  cfg.Pipeline,
		}}
	}
	kinds := make([]string, len(cfg.Stages))
	for i, st := range cfg.Stages {
		kinds[i] = st.Kind
	}
	var missing []string
	for _, k := range servingKinds {
		if !slices.Contains(kinds, k) {
			missing = append(missing, fmt.Sprintf("%q", k))
		}
	}
	if len(missing) > 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing stage",
			Detail: fmt.Sprintf("the pipeline has no %s stage; every request needs guard, fetch and extract, in that order.",
				strings.Join(missing, " or ")),
			Subject: cfg.Pipeline,
		})
	}
	for _, st := range cfg.Stages {
		diags = append(diags, stageBlockRefs(cfg, st)...)
	}
	return diags
}

// stageBlockRefs checks that the top-level block a stage works through
// exists: otherwise every request asking for it gets only a warning.
func stageBlockRefs(cfg *config.Config, st config.Stage) hcl.Diagnostics {
	switch st.Kind {
	case "context":
		if cfg.Context == nil {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "No context block",
				Detail:   "the context stage searches the source a context block names, and the file has none. Add one, for example:\n\ncontext \"honcho\" {\n  url = \"http://127.0.0.1:8000\"\n}",
				Subject:  st.DefRange.Ptr(),
			}}
		}
	}
	return nil
}
