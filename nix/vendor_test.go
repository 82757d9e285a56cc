package nix

import (
	"encoding/base64"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var vendorHashLine = regexp.MustCompile(`vendorHash = "(sha256-[A-Za-z0-9+/=]+)";`)

// TestVendorHash: flake.nix's vendorHash is what buildGoModule will find,
// the NAR hash of the directory `go mod vendor` writes, so a change to
// go.sum without it fails here rather than in an operator's rebuild.
func TestVendorHash(t *testing.T) {
	nixHash := need(t, "nix-hash")
	flake, err := os.ReadFile("../flake.nix")
	if err != nil {
		t.Fatal(err)
	}
	m := vendorHashLine.FindAllSubmatch(flake, -1)
	if len(m) != 1 {
		t.Fatalf("flake.nix has %d vendorHash lines, want 1", len(m))
	}
	pinned := string(m[0][1])

	vendor := filepath.Join(t.TempDir(), "vendor")
	cmd := exec.Command("go", "mod", "vendor", "-o", vendor)
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod vendor: %v\n%s", err, out)
	}
	stdout, stderr, err := run(t, nixHash, "--type", "sha256", vendor)
	if err != nil {
		t.Fatalf("nix-hash: %v\n%s", err, stderr)
	}
	sum, err := hex.DecodeString(strings.TrimSpace(stdout))
	if err != nil {
		t.Fatalf("nix-hash printed %q: %v", stdout, err)
	}
	got := "sha256-" + base64.StdEncoding.EncodeToString(sum)
	if got != pinned {
		t.Errorf("flake.nix pins vendorHash %s, go mod vendor hashes to %s: update flake.nix", pinned, got)
	}
}
