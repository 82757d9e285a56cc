package app

import (
	"context"
	"log/slog"
	"slices"
	"testing"

	"github.com/siftd/sift/config"
)

// TestDependenciesFromTheConfiguredDigester: the health report probes the
// endpoint the built-in digester was configured with, and only for the
// digesters that started.
func TestDependenciesFromTheConfiguredDigester(t *testing.T) {
	t.Setenv("SIFT_TEST_LLM_KEY", "k")
	src := `
digester "llm" {
  endpoint    = "http://127.0.0.1:9/v1"
  api_key_env = "SIFT_TEST_LLM_KEY"
  isolation   = "none"
}
`
	cfg, diags := config.Parse([]byte(src+"\ndata_dir = \""+t.TempDir()+"\"\n"), "config.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	a, diags := Load(context.Background(), cfg, Options{Logger: slog.New(slog.DiscardHandler), Only: []string{"llm"}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	defer a.Close(context.Background())
	ups := a.Host.DigesterUpstreams()
	u, ok := ups["llm"]
	if !ok || len(ups) != 1 {
		t.Fatalf("upstreams = %v, want llm alone", ups)
	}
	if url, key := u.Upstream(); url != "http://127.0.0.1:9/v1" || key != "k" {
		t.Fatalf("llm upstream = %q, %q; want the block's endpoint and the key from its variable", url, key)
	}
	names := make([]string, 0)
	for name := range a.Dependencies() {
		names = append(names, name)
	}
	if !slices.Equal(names, []string{"digester/llm"}) {
		t.Fatalf("dependencies = %v, want digester/llm", names)
	}
}
