package config

import (
	"slices"
	"strings"
	"testing"
)

func TestPluginEnv(t *testing.T) {
	tests := []struct {
		src     string
		want    []string
		wantErr string
	}{
		{src: `extractor "html" {}`},
		{src: `extractor "html" { env = ["GOMEMLIMIT", "HTTP_PROXY"] }`, want: []string{"GOMEMLIMIT", "HTTP_PROXY"}},
		{src: `extractor "html" { env = ["KEY=value"] }`, wantErr: "Invalid env"},
		{src: `extractor "html" { env = ["1ST"] }`, wantErr: "Invalid env"},
		{src: `extractor "html" { env = [""] }`, wantErr: "Invalid env"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			if p, ok := parseExtractor(t, tc.src, tc.wantErr); ok && !slices.Equal(p.Env, tc.want) {
				t.Errorf("Env = %q, want %q", p.Env, tc.want)
			}
		})
	}
}

func TestPluginCPUs(t *testing.T) {
	tests := []struct {
		src     string
		want    int
		wantErr string
	}{
		{src: `extractor "html" {}`, want: 0},
		{src: `extractor "html" { cpus = 1 }`, want: 1},
		{src: `extractor "html" { cpus = 0 }`, wantErr: "must be between 1 and 1024"},
		{src: `extractor "html" { cpus = "two" }`, wantErr: "Unsuitable value"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			if p, ok := parseExtractor(t, tc.src, tc.wantErr); ok && p.CPUs != tc.want {
				t.Errorf("CPUs = %d, want %d", p.CPUs, tc.want)
			}
		})
	}
}

// parseExtractor parses src, a configuration of one extractor block, and
// returns the block; when wantErr is set it checks that the diagnostics say
// it instead, and ok is false.
func parseExtractor(t *testing.T, src, wantErr string) (p Plugin, ok bool) {
	t.Helper()
	cfg, diags := Parse([]byte(src), "t.hcl")
	if wantErr != "" {
		if !strings.Contains(diags.Error(), wantErr) {
			t.Fatalf("diags = %v, want %q", diags, wantErr)
		}
		return Plugin{}, false
	}
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg.Extractors[0], true
}
