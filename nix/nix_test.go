// Package nix tests the flake, the NixOS module services.sift and the
// plain systemd unit in deploy/. The module is evaluated offline with the
// copy of nixpkgs' lib under tests/nixpkgs-lib and Debian's nix-bin; make
// nix-check runs these tests with SIFT_NIX_CHECK=1, which turns a missing
// tool into a failure instead of a skip.
package nix

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden HCL files in testdata/")

// storeStub is the store path tests/eval.nix gives every package and file.
const storeStub = "/nix/store/00000000000000000000000000000000-"

// need returns the path of a tool the test cannot run without.
func need(t *testing.T, tool string) string {
	t.Helper()
	path, err := exec.LookPath(tool)
	if err != nil {
		skipOrFail(t, tool+" not found (apt-get install nix-bin systemd)")
	}
	return path
}

// siftBinary is the sift that make build put in bin/.
func siftBinary(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs("../bin/sift")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		skipOrFail(t, "bin/sift missing: run make build")
	}
	return bin
}

func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("SIFT_NIX_CHECK") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

func run(t *testing.T, name string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(name, args...)
	// Evaluation needs no Nix store: the dummy one lets the tests run as
	// any user, with no daemon, and leaves /nix alone.
	cmd.Env = append(os.Environ(), "NIX_REMOTE=dummy://")
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// evaluation is what tests/eval.nix returns for one configuration.
type evaluation struct {
	Unit struct {
		After           []string          `json:"after"`
		ReloadTriggers  []string          `json:"reloadTriggers"`
		RestartTriggers []string          `json:"restartTriggers"`
		WantedBy        []string          `json:"wantedBy"`
		Environment     map[string]string `json:"environment"`
		ServiceConfig   map[string]any    `json:"serviceConfig"`
	} `json:"unit"`
	HCL          string `json:"hcl"`
	StartScript  string `json:"startScript"`
	ReloadScript string `json:"reloadScript"`
	Etc          map[string]struct {
		Source string `json:"source"`
	} `json:"etc"`
	Hardening map[string]any `json:"hardening"`
}

// evaluate evaluates services.sift with configuration, a Nix expression
// for a module; it returns nix-instantiate's error output on failure.
func evaluate(t *testing.T, configuration string) (*evaluation, string) {
	t.Helper()
	nix := need(t, "nix-instantiate")
	stdout, stderr, err := run(t, nix, "--eval", "--strict", "--json", "tests/eval.nix",
		"--arg", "configuration", configuration)
	if err != nil {
		return nil, stderr
	}
	var ev evaluation
	if err := json.Unmarshal([]byte(stdout), &ev); err != nil {
		t.Fatalf("decode evaluation: %v", err)
	}
	return &ev, ""
}

// TestParse: every .nix file in the repository parses.
func TestParse(t *testing.T) {
	nix := need(t, "nix-instantiate")
	var files []string
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".nix") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"../flake.nix", "../nix/module.nix", "../nix/package.nix"} {
		if !contains(files, want) {
			t.Errorf("%s not found among %d .nix files", want, len(files))
		}
	}
	// One nix-instantiate for all: its error names the file.
	if _, stderr, err := run(t, nix, append([]string{"--parse"}, files...)...); err != nil {
		t.Errorf("a .nix file does not parse: %s", stderr)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
