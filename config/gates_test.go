package config

import (
	"strings"
	"testing"
	"time"
)

// TestGates: the gates block's defaults, its bounds, and queue 0 as
// "refuse at once".
func TestGates(t *testing.T) {
	tests := []struct {
		src   string
		wait  time.Duration
		queue int
		err   string
	}{
		{``, DefaultGateWait, DefaultGateQueue, ""},
		{`gates {}`, DefaultGateWait, DefaultGateQueue, ""},
		{`gates { wait = "2s" }`, 2 * time.Second, DefaultGateQueue, ""},
		{`gates { queue = 0 }`, DefaultGateWait, 0, ""},
		{`gates { wait = "3m" }`, 0, 0, "wait must be at most 2m0s"},
		{`gates { wait = "0s" }`, 0, 0, "not a positive duration"},
		{`gates { queue = 5000 }`, 0, 0, "must be between 0 and 1024"},
		{`gates { wait = "soon" }`, 0, 0, "soon"},
	}
	for _, tc := range tests {
		cfg, diags := Parse([]byte(tc.src+"\n"), "t.hcl")
		if tc.err != "" {
			if !strings.Contains(diags.Error(), tc.err) {
				t.Errorf("%s: %v, want an error with %q", tc.src, diags, tc.err)
			}
			continue
		}
		if diags.HasErrors() {
			t.Errorf("%s: %v", tc.src, diags)
			continue
		}
		if g := cfg.Gates; g.Wait != tc.wait || g.Queue != tc.queue {
			t.Errorf("%s: wait %v queue %d", tc.src, g.Wait, g.Queue)
		}
	}
}
