package sdk_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoHeavyImports keeps plugin binaries small and the SDK's module graph
// its own: neither the packages a third party imports nor the modules its
// build needs include sift's storage, extraction or PDF code. The HCL
// decoder is for tests and for sift (hclconfig, sdktest): the package a
// plugin binary links, sdk itself, leaves it out.
func TestNoHeavyImports(t *testing.T) {
	banned := []string{"gorm.io", "sqlite", "jackc/pgx", "gorilla/mux", "go-trafilatura", "go-pdfium",
		"tetratelabs/wazero", "html-to-markdown", "gojq"}
	forBinaries := []string{"hashicorp/hcl", "zclconf/go-cty"}
	for _, pkg := range []string{".", "./sdktest", "./hclconfig"} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.HasPrefix(dep, "github.com/siftd/sift/") && !strings.HasPrefix(dep, "github.com/siftd/sift/plugins/sdk") {
				t.Errorf("%s imports %s, a package of sift's own module", pkg, dep)
			}
			notHere := banned
			if pkg == "." {
				notHere = append(forBinaries, banned...)
			}
			for _, b := range notHere {
				if strings.Contains(dep, b) {
					t.Errorf("%s imports %s", pkg, dep)
				}
			}
		}
	}
	out, err := exec.Command("go", "list", "-m", "all").Output()
	if err != nil {
		t.Fatalf("go list -m all: %v", err)
	}
	for _, mod := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path := strings.Fields(mod)[0]
		if path == "github.com/siftd/sift" {
			t.Errorf("the SDK's module graph holds sift's own module")
		}
		for _, b := range banned {
			if strings.Contains(path, b) {
				t.Errorf("the SDK's module graph holds %s", mod)
			}
		}
	}
}
