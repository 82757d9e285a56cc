package config

import (
	"strings"
	"testing"
)

// TestBatchByteBounds: the caller share defaults to a quarter of
// max_bytes and the result cap to the lesser of 8 MiB and the share;
// bounds that cannot hold together are refused.
func TestBatchByteBounds(t *testing.T) {
	tests := []struct {
		block                 string
		total, caller, result int64
		err                   string
	}{
		{``, 64 << 20, 16 << 20, 8 << 20, ""},
		{`max_bytes = "8MiB"`, 8 << 20, 2 << 20, 2 << 20, ""},
		{`max_bytes = "1GiB"`, 1 << 30, 256 << 20, 8 << 20, ""},
		{`max_result_bytes = "9MiB"`, 0, 0, 0, "at most 8388608 bytes"},
		{`max_caller_bytes = "1MiB"
		  max_result_bytes = "2MiB"`, 0, 0, 0, "must not exceed max_caller_bytes"},
		{`max_bytes = "1MiB"
		  max_caller_bytes = "2MiB"`, 0, 0, 0, "must not exceed max_bytes"},
	}
	for _, tc := range tests {
		cfg, diags := Parse([]byte("batch {\n"+tc.block+"\n}\n"), "t.hcl")
		if tc.err != "" {
			if !strings.Contains(diags.Error(), tc.err) {
				t.Errorf("%s: %v, want an error with %q", tc.block, diags, tc.err)
			}
			continue
		}
		if diags.HasErrors() {
			t.Errorf("%s: %v", tc.block, diags)
			continue
		}
		if b := cfg.Batch; b.MaxBytes != tc.total || b.CallerBytes != tc.caller || b.ResultBytes != tc.result {
			t.Errorf("%s: %d %d %d", tc.block, b.MaxBytes, b.CallerBytes, b.ResultBytes)
		}
	}
}
