package sdk

import (
	"bytes"
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// A process with a memory limit gets a soft limit at half of it and
// collects garbage at 5× its live heap, unless GOGC says otherwise; one
// without a limit keeps Go's defaults.
func TestLimitMemory(t *testing.T) {
	// The runtime settings are the process's: each case restores them.
	restore := func() {
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(100)
	}
	tests := []struct {
		name      string
		limit     int
		gogcSet   bool
		wantLimit int64
		wantGC    int
	}{
		{"no limit", 0, false, math.MaxInt64, 100},
		{"a limit", 500 << 20, false, 250 << 20, gcPercentUnderLimit},
		{"a limit and GOGC", 500 << 20, true, 250 << 20, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			restore()
			t.Cleanup(restore)
			limitMemory(tt.limit, tt.gogcSet)
			if got := debug.SetMemoryLimit(-1); got != tt.wantLimit {
				t.Errorf("soft limit %d, want %d", got, tt.wantLimit)
			}
			if got := debug.SetGCPercent(100); got != tt.wantGC {
				t.Errorf("GC percent %d, want %d", got, tt.wantGC)
			}
		})
	}
}

// A plugin sift starts from /proc/self/fd/3 names itself after its
// binary, so ps shows "sift-html" rather than "3".
func TestNameProcess(t *testing.T) {
	was, err := os.ReadFile("/proc/self/comm")
	if err != nil {
		t.Skip("no /proc/self/comm on this system") // only Linux names processes so
	}
	t.Cleanup(func() { nameProcess(string(bytes.TrimSpace(was))) })
	nameProcess("sift-feed")
	if got, _ := os.ReadFile("/proc/self/comm"); string(bytes.TrimSpace(got)) != "sift-feed" {
		t.Fatalf("the process is named %q", got)
	}
}
