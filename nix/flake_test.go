package nix

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestFlakeOutputs evaluates flake.nix with a stand-in nixpkgs: the package
// builds both binaries with Go 1.26 from the source without nix/ and bin/,
// the app runs sift, and nixosModules.default gives services.sift the
// flake's package.
func TestFlakeOutputs(t *testing.T) {
	nix := need(t, "nix-instantiate")
	stdout, stderr, err := run(t, nix, "--eval", "--strict", "--json", "tests/flake-outputs.nix")
	if err != nil {
		t.Fatalf("evaluate flake.nix: %v\n%s", err, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	pkg := storeStub + "sift"
	wantValues := map[string]any{
		"pname":           "sift",
		"version":         "abc1234",
		"subPackages":     []any{"cmd/sift", "cmd/sift-html"},
		"ldflags":         []any{"-s", "-w", "-X main.version=abc1234", "-X main.revision=abc1234000000000000000000000000000000000"},
		"goName":          "go-1.26",
		"cgo":             "0",
		"doCheck":         false,
		"sourceKeeps":     []any{true, true, false, false}, // cmd plugins nix bin
		"defaultIsSift":   true,
		"app":             pkg + "/bin/sift",
		"moduleExecStart": pkg + "/bin/sift serve --config /etc/sift/config.hcl",
	}
	for key, value := range wantValues {
		if !reflect.DeepEqual(got[key], value) {
			t.Errorf("%s = %#v, want %#v", key, got[key], value)
		}
	}
	shell, _ := got["devShell"].([]any)
	for _, tool := range []string{"go-1.26", "protobuf", "postgresql", "nodejs", "nix", "systemd"} {
		if !contains(anyStrings(shell), tool) {
			t.Errorf("devShells.default lacks %s: %v", tool, shell)
		}
	}
}

func anyStrings(list []any) []string {
	out := make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
