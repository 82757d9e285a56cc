package daemon

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/host"
	"github.com/siftd/sift/plugins/html"
)

// TestReloadRefusesFilesThatCannotServe: a reload to a file that sets
// nothing, declares no caller, has lost the pipeline block the running
// configuration has, or gives two callers one key is refused with an
// error naming the file, and the running configuration goes on: its
// caller's key still works and its cache stage still runs.
func TestReloadRefusesFilesThatCannotServe(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	cached := `pipeline {
  stage "guard" {}
  stage "fetch" {}
  stage "extract" {}
  stage "cache" {}
}`
	opts := Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Extractors: host.Builtins{"html": html.New}}
	d, diags := New(ctx, testConfig(t, dir, "key-0", cached), opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	defer d.Close(context.Background())
	srv := httptest.NewServer(d)
	defer srv.Close()

	parse := func(src string) *config.Config {
		cfg, diags := config.Parse([]byte(src), "/etc/sift/next.hcl")
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return cfg
	}
	// The running file cut short after its caller block: no pipeline.
	truncated := testConfig(t, dir, "key-0", "")
	truncated.File = "/etc/sift/next.hcl"
	tests := []struct {
		name string
		next *config.Config
		want string // the summary of the error
	}{
		{"empty", parse(""), "Empty configuration"},
		{"comments only", parse("# sift\n"), "Empty configuration"},
		{"no caller", parse("data_dir = \"" + dir + "\"\n" + cached + "\n"), "No caller block"},
		{"cut short before the pipeline", truncated, "No pipeline block"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			diags := d.Reload(ctx, tc.next)
			if !slices.ContainsFunc(diags, func(d *hcl.Diagnostic) bool {
				return d.Severity == hcl.DiagError && d.Summary == tc.want && strings.Contains(d.Detail, "/etc/sift/next.hcl")
			}) {
				t.Errorf("reload: %v, want the error %q naming the file", diags, tc.want)
			}
			if got := healthStatus(t, srv.URL, "key-0"); got != http.StatusOK {
				t.Errorf("the running caller after a refused reload: %d", got)
			}
			if got := d.Stages(); !slices.Contains(got, "cache") {
				t.Errorf("the running chain after a refused reload: %v", got)
			}
		})
	}
}
