package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/config"
	"github.com/siftd/sift/plugins/sdk"
)

// TestThirdPartyPlugin builds examples/extractor as a separate binary,
// declares it in HCL with its hash, and extracts a CSV file through it:
// the path a plugin author's binary takes.
func TestThirdPartyPlugin(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "sift-csv")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join("..", "..", "examples", "extractor")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the example plugin: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	src := fmt.Sprintf(`
data_dir = %q
extractor "csv" {
  command       = [%q]
  sha256        = %q
  content_types = ["text/csv"]
  pool          = 1
  max_rows      = 1
}`, t.TempDir(), bin, hex.EncodeToString(sum[:]))
	cfg, diags := config.Parse([]byte(src), "config.hcl")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	a, diags := Load(context.Background(), cfg, Options{Only: []string{"csv"}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	name, ex, ok := a.Host.Route("text/csv")
	if !ok || name != "csv" {
		t.Fatalf("route text/csv = %q, %v", name, ok)
	}
	res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: []byte("a,b\n1,2\n3,4\n"), ContentType: "text/csv"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "| a | b |\n| --- | --- |\n| 1 | 2 |"; res.Content != want {
		t.Errorf("content %q, want %q (max_rows = 1 from HCL)", res.Content, want)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "cut at 1 of 2 rows") {
		t.Errorf("warnings %q", res.Warnings)
	}
}
