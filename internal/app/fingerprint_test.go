package app

import (
	"testing"

	"github.com/siftd/sift/config"
)

// TestGuardFingerprint: the guard policy's fingerprint ignores the order
// its lists are written in and changes with anything the guard allows.
func TestGuardFingerprint(t *testing.T) {
	fp := func(guard string) string {
		t.Helper()
		cfg, diags := config.Parse([]byte("pipeline {\n  stage \"guard\" {\n"+guard+"\n  }\n  stage \"fetch\" {}\n}\n"), "config.hcl")
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return GuardFingerprint(cfg)
	}
	base := fp(`allow_ports = [80, 443]
allow_cidrs = ["10.0.0.0/8", "192.168.1.0/24"]`)
	if same := fp(`allow_ports = [443, 80]
allow_cidrs = ["192.168.1.0/24", "10.0.0.0/8"]`); same != base {
		t.Error("the order of the lists changed the fingerprint")
	}
	for _, other := range []string{
		`allow_ports = [80, 443]`,
		`allow_ports = [80, 443, 8080]
allow_cidrs = ["10.0.0.0/8", "192.168.1.0/24"]`,
		`allow_ports = [80, 443]
allow_cidrs = ["10.0.0.0/8", "192.168.1.0/24"]
allow_hosts = ["intranet.example"]`,
	} {
		if fp(other) == base {
			t.Errorf("%q has the same fingerprint", other)
		}
	}
}
