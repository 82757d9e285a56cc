package daemon

import "github.com/siftd/sift/config"

// restartOnly names the settings of next that differ from running but
// change only with a restart: the listener is bound, the store open, and
// the batch runner's limits and workers fixed at start.
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
	return out
}

// keep gives next the running values of the settings only a restart
// changes, so what the new configuration reports is what runs.
func keep(running, next *config.Config) {
	next.Listen, next.DataDir, next.Store, next.Batch = running.Listen, running.DataDir, running.Store, running.Batch
}
