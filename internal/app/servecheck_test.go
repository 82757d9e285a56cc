package app

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
)

// TestCheckServeRefusesFilesWithoutCallers: a file that sets nothing, or
// declares no caller, would answer every request 401; serve, reload and
// validate refuse it as an error that names the file, like any broken
// file. A file with a caller and no pipeline block still runs the default
// chain (a warning, not an error).
func TestCheckServeRefusesFilesWithoutCallers(t *testing.T) {
	const caller = "caller \"agent\" {\n  key_sha256 = \"62af8704764faf8ea82fc61ce9c4c3908b6cb97d463a634e9e587d7c885db0ef\"\n}\n"
	tests := []struct {
		name string
		src  string
		// want is the summary of the error expected; none when empty.
		want string
	}{
		{"empty", "", "Empty configuration"},
		{"blank lines", "\n\n  \n", "Empty configuration"},
		{"comments only", "# sift\n// the rest was lost\n", "Empty configuration"},
		{"no caller", "listen = \"127.0.0.1:8890\"\npipeline {\n  stage \"guard\" {}\n  stage \"fetch\" {}\n  stage \"extract\" {}\n}\n", "No caller block"},
		{"cut short before the callers", "listen = \"127.0.0.1:8890\"\ndata_dir = \"./data\"\n", "No caller block"},
		{"a caller", caller, ""},
		{"a caller, no pipeline", "listen = \"127.0.0.1:8890\"\n" + caller, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, diags := config.Parse([]byte(tc.src), "/etc/sift/config.hcl")
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			for name, diags := range map[string]func() []string{
				"CheckServe": func() []string { return errorTexts(CheckServe(cfg)) },
				"Check":      func() []string { return errorTexts(Check(context.Background(), cfg)) },
			} {
				errs := diags()
				if tc.want == "" {
					if len(errs) > 0 {
						t.Errorf("%s: %v", name, errs)
					}
					continue
				}
				if len(errs) != 1 || !strings.HasPrefix(errs[0], tc.want+": ") || !strings.Contains(errs[0], "/etc/sift/config.hcl") {
					t.Errorf("%s: %q, want one error %q naming the file", name, errs, tc.want)
				}
			}
		})
	}
}

// errorTexts are the errors among diags, as "summary: detail".
func errorTexts(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return out
}
