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
			cfg, diags := Parse([]byte(tc.src), "t.hcl")
			if tc.wantErr != "" {
				if !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("diags = %v, want %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got := cfg.Extractors[0].Env; !slices.Equal(got, tc.want) {
				t.Errorf("Env = %q, want %q", got, tc.want)
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
			cfg, diags := Parse([]byte(tc.src), "t.hcl")
			if tc.wantErr != "" {
				if !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("diags = %v, want %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got := cfg.Extractors[0].CPUs; got != tc.want {
				t.Errorf("CPUs = %d, want %d", got, tc.want)
			}
		})
	}
}
