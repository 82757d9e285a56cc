package daemon

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
)

// restartOnly names the settings of next that differ from running but
// change only with a restart: the listener is bound, the store open, and
// the batch runner's limits and workers fixed at start, and the gates
// shared by every configuration.
func restartOnly(running, next *config.Config) []string {
	var out []string
	if next.Listen != running.Listen {
		out = append(out, "listen")
	}
	if next.DataDir != running.DataDir {
		out = append(out, "data_dir")
	}
	if next.Store != running.Store {
		out = append(out, "the store block")
	}
	if next.Batch != running.Batch {
		out = append(out, "the batch block")
	}
	if next.Gates != running.Gates {
		out = append(out, "the gates block")
	}
	return out
}

// keep gives next the running values of the settings only a restart
// changes, so what the new configuration reports is what runs.
func keep(running, next *config.Config) {
	next.Listen, next.DataDir, next.Store, next.Batch, next.Gates = running.Listen, running.DataDir, running.Store, running.Batch, running.Gates
}

// lostPipeline refuses a reload to a file without a pipeline block while
// the running configuration has one. At start such a file runs the
// default chain (guard, fetch, extract, with a warning), but on a reload
// it is what a file cut short reads as: the chain, its cache stage
// included, would go without a word. A restart takes such a file.
func lostPipeline(running, next *config.Config) hcl.Diagnostics {
	if running.Pipeline == nil || next.Pipeline != nil || next.Empty() {
		return nil // an empty file has an error of its own
	}
	kinds := make([]string, len(running.Stages))
	for i, st := range running.Stages {
		kinds[i] = st.Kind
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "No pipeline block",
		Detail: fmt.Sprintf("%s has no pipeline block, and the running configuration's (%s) would give way to the default chain "+
			"(guard, fetch, extract, with no cache); a file cut short reads this way, so a reload keeps the running one. "+
			"Write the chain out, or restart sift to run the default chain.", next.File, strings.Join(kinds, ", ")),
	}}
}
