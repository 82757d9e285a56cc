package sdk_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoHeavyImports keeps plugin binaries small: the SDK a third party
// imports must not pull in sift's database, router or extractors.
func TestNoHeavyImports(t *testing.T) {
	for _, pkg := range []string{".", "./sdktest"} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, banned := range []string{"gorm.io", "sqlite", "gorilla/mux", "github.com/siftd/sift/stages",
				"github.com/siftd/sift/plugins/host", "github.com/siftd/sift/config", "go-trafilatura"} {
				if strings.Contains(dep, banned) {
					t.Errorf("%s imports %s", pkg, dep)
				}
			}
		}
	}
}
