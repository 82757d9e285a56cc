package config

import (
	"slices"
	"strings"
	"testing"
)

// TestMetricsBlock: /metrics is open without the block; key_required
// closes it to the callers' keys, callers to those it names, and a name
// no caller block declares, or callers without key_required, is an error
// at the attribute.
func TestMetricsBlock(t *testing.T) {
	const callers = `caller "agent" {
  key_sha256 = "62af8704764faf8ea82fc61ce9c4c3908b6cb97d463a634e9e587d7c885db0ef"
}
caller "prometheus" {
  key_sha256 = "1377c1a984d5a3f51cf602be0a02ae75580a1ec45c38b6a3ec2570bdfcb8bf70"
}
`
	tests := []struct {
		name     string
		src      string
		required bool
		callers  []string
		err      string // a text of the error expected
		line     int    // where the error points
	}{
		{"no block", "", false, nil, "", 0},
		{"empty block", "metrics {}", false, nil, "", 0},
		{"open", "metrics {\n  key_required = false\n}", false, nil, "", 0},
		{"any caller's key", "metrics {\n  key_required = true\n}", true, nil, "", 0},
		{"one caller's key", "metrics {\n  key_required = true\n  callers      = [\"prometheus\"]\n}", true, []string{"prometheus"}, "", 0},
		{"an undeclared caller", "metrics {\n  key_required = true\n  callers      = [\"prometheus\", \"grafana\"]\n}", false, nil, `"grafana" is not a caller`, 9},
		{"callers without key_required", "metrics {\n  callers = [\"prometheus\"]\n}", false, nil, "key_required = true", 8},
		{"no callers", "metrics {\n  key_required = true\n  callers      = []\n}", false, nil, "lists no caller", 9},
		{"a misspelt attribute", "metrics {\n  key_requird = true\n}", false, nil, `Did you mean "key_required"?`, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, diags := Parse([]byte(callers+tc.src+"\n"), "m.hcl")
			if tc.err != "" {
				if len(diags.Errs()) != 1 || !strings.Contains(diags.Error(), tc.err) {
					t.Fatalf("%v, want one error with %q", diags, tc.err)
				}
				if s := diags[0].Subject; s == nil || s.Filename != "m.hcl" || s.Start.Line != tc.line {
					t.Fatalf("the error points at %v, want m.hcl line %d", s, tc.line)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if cfg.Metrics.KeyRequired != tc.required || !slices.Equal(cfg.Metrics.Callers, tc.callers) {
				t.Fatalf("metrics %+v, want key_required %v, callers %v", cfg.Metrics, tc.required, tc.callers)
			}
		})
	}
}
