package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateChecksTheEnvironment: validate refuses what serve would
// where the environment decides, naming the block's file and line: an
// unset dsn_env (serve refuses it too, with the same line), an extractor
// whose memory its process cannot run in; it warns of an unset Brave key
// variable. --no-environment checks the file alone.
func TestValidateChecksTheEnvironment(t *testing.T) {
	const callers = "caller \"a\" {\n  key_sha256 = \"62af8704764faf8ea82fc61ce9c4c3908b6cb97d463a634e9e587d7c885db0ef\"\n}\n" +
		"pipeline {\n  stage \"guard\" {}\n  stage \"fetch\" {}\n  stage \"extract\" {}\n}\n"
	tests := []struct {
		name, src string
		env       []string
		code      int
		want      []string // in validate's output
		serve     bool     // serve refuses it too, with the same words
	}{
		{"dsn_env unset", callers + "store {\n  driver  = \"postgres\"\n  dsn_env = \"SIFT_TEST_DSN_UNSET\"\n}\n", nil, 1,
			[]string{"Error: Environment variable not set", "line 10, in store", "store.dsn_env names SIFT_TEST_DSN_UNSET"}, true},
		{"pdf memory too small", callers + "extractor \"pdf\" {\n  memory = \"96MiB\"\n}\n", nil, 1,
			[]string{"Error: Extractor does not run within its memory", "line 10, in extractor \"pdf\"", `memory = "96MiB"`}, false},
		{"brave key unset", callers + "search {\n  brave {\n    api_key_env = \"SIFT_TEST_BRAVE_UNSET\"\n  }\n}\n", nil, 0,
			[]string{"Warning: Environment variable not set", "line 10, in search", "search.brave.api_key_env names SIFT_TEST_BRAVE_UNSET"}, false},
		{"brave key set", callers + "search {\n  brave {\n    api_key_env = \"SIFT_TEST_BRAVE_SET\"\n  }\n}\n", []string{"SIFT_TEST_BRAVE_SET=k"}, 0, nil, false},
		{"pdf memory enough", callers + "extractor \"pdf\" {\n  memory = \"768MiB\"\n}\n", nil, 0, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := filepath.Join(t.TempDir(), "config.hcl")
			src := "data_dir = \"" + filepath.Dir(cfg) + "\"\n" + tt.src
			if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
				t.Fatal(err)
			}
			run := func(args ...string) (string, int) {
				cmd := exec.Command(siftBin, args...)
				cmd.Env = append(os.Environ(), tt.env...)
				stdout, stderr, code := runCmd(t, cmd)
				return stdout + stderr, code
			}
			out, code := run("validate", cfg)
			if code != tt.code {
				t.Errorf("validate: exit %d, want %d\n%s", code, tt.code, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("validate does not say %q:\n%s", w, out)
				}
			}
			if tt.want == nil && strings.Contains(out, "Environment variable") {
				t.Errorf("validate warned:\n%s", out)
			}
			if out, code := run("validate", "--no-environment", cfg); code != 0 {
				t.Errorf("validate --no-environment: exit %d\n%s", code, out)
			}
			if tt.serve {
				out, code := run("serve", "--config", cfg)
				if code != 1 || !strings.Contains(out, tt.want[1]) || !strings.Contains(out, tt.want[2]) {
					t.Errorf("serve: exit %d, want 1 with %q\n%s", code, tt.want[1], out)
				}
			}
		})
	}
}
