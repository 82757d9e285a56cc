package host

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/sdk"
)

// The memory of a plugin that says what it needs per byte of body follows
// the fetch stage's max_body; a block's own memory below that need is an
// error at start that names both.
func TestFitMemory(t *testing.T) {
	for _, tc := range []struct {
		name      string
		perBody   float64
		memory    int64
		set       bool
		maxBody   int64
		want      int64
		wantError string
	}{
		{name: "the default is enough", perBody: 10, memory: config.DefaultMemory, maxBody: 5 << 20, want: config.DefaultMemory},
		{name: "the default grows with max_body", perBody: 10, memory: config.DefaultMemory, maxBody: 64 << 20, want: sdk.BaseMemory + 640<<20},
		{name: "a block's own memory that fits", perBody: 10, memory: 1 << 30, set: true, maxBody: 64 << 20, want: 1 << 30},
		{name: "a block's own memory too small", perBody: 10, memory: 64 << 20, set: true, maxBody: 5 << 20,
			wantError: `extractor "office" has memory = 64MiB, but reading a body of max_body (5MiB) needs about 10 times it and 96MiB more: 146MiB`},
		{name: "a plugin that declares nothing", memory: 64 << 20, set: true, maxBody: 64 << 20, want: 64 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			specs := []Spec{{Name: "office", Memory: tc.memory, MemorySet: tc.set, Info: sdk.Info{MemoryPerBody: tc.perBody},
				DefRange: hcl.Range{Filename: "sift.hcl", Start: hcl.Pos{Line: 7}}}}
			diags := FitMemory(specs, tc.maxBody)
			if tc.wantError != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantError) || !strings.Contains(diags.Error(), "sift.hcl:7") {
					t.Fatalf("diagnostics %q, want an error on sift.hcl:7 saying %q", diags.Error(), tc.wantError)
				}
				return
			}
			if diags.HasErrors() || specs[0].Memory != tc.want {
				t.Fatalf("memory %d, %v; want %d", specs[0].Memory, diags, tc.want)
			}
		})
	}
}
