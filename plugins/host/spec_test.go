package host

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/sdk"
)

// companionOnPath puts a copy of the test binary, which serves the faulty
// extractor, on PATH as the companion binary "sift-faulty".
func companionOnPath(t *testing.T) {
	t.Helper()
	t.Setenv(envTestPlugin, "1")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sift-faulty"), body, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

var testCompanions = Companions{"faulty": {Binary: "sift-faulty", ContentTypes: []string{"text/x-test"}}}

func planBlocks(t *testing.T, src string, builtins Builtins) ([]Spec, hcl.Diagnostics) {
	t.Helper()
	cfg, diags := config.Parse([]byte(src), "test.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return Plan(context.Background(), cfg.Extractors, builtins, testCompanions, 1<<20)
}

func TestCompanionRunsFromItsOwnBinary(t *testing.T) {
	companionOnPath(t)
	specs, diags := planBlocks(t, `extractor "faulty" { pool = 1 }`, nil)
	if diags.HasErrors() || len(specs) != 1 || !specs[0].Companion {
		t.Fatalf("plan: %v %+v", diags, specs)
	}
	h, diags := Start(context.Background(), specs, Options{Stderr: io.Discard})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	defer h.Close()
	_, ex, ok := h.Route("text/x-test")
	if !ok {
		t.Fatal("no route to the companion's media type")
	}
	res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: []byte("hi")})
	if err != nil || res.Content != "echo: hi" {
		t.Fatalf("extract = %+v, %v", res, err)
	}
}

func TestCompanionPlanErrors(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	tests := []struct {
		name, src string
		builtins  Builtins
		want      string // in the diagnostics; "" for none
		companion bool
	}{
		{name: "missing binary", src: ``, companion: true,
			want: `extractor "faulty" runs as sift-faulty, which is neither beside sift's binary nor on PATH`},
		{name: "in-process", src: `extractor "faulty" { isolation = "none" }`,
			want: "runs from its own binary, sift-faulty, so it cannot run in-process"},
		{name: "name taken", src: `extractor "faulty" {
  command       = ["/bin/true"]
  content_types = ["text/x-test"]
  sha256        = "` + strings.Repeat("ab", 32) + `"
}`, want: "is a built-in extractor"},
		{name: "compiled in wins", src: `extractor "faulty" { isolation = "none" }`,
			builtins: Builtins{"faulty": func() sdk.Extractor { return faultyExtractor{} }}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			specs, diags := planBlocks(t, tt.src, tt.builtins)
			if !diags.HasErrors() {
				_, ds := Start(context.Background(), specs, Options{Stderr: io.Discard})
				diags = append(diags, ds...)
			}
			if tt.want == "" && diags.HasErrors() {
				t.Fatalf("unexpected diagnostics: %v", diags)
			}
			if !strings.Contains(diags.Error(), tt.want) {
				t.Fatalf("diagnostics %q do not say %q", diags.Error(), tt.want)
			}
			if len(specs) == 1 && specs[0].Companion != tt.companion {
				t.Fatalf("companion = %v, want %v", specs[0].Companion, tt.companion)
			}
		})
	}
}
