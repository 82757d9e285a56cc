package host

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestRoutePrecedence: the most specific pattern wins; on a tie of rank an
// operator's external plugin beats a built-in or a companion, whatever the
// order of the specs.
func TestRoutePrecedence(t *testing.T) {
	builtin := func(name string, cts ...string) Spec { return Spec{Name: name, ContentTypes: cts} }
	external := func(name string, cts ...string) Spec {
		return Spec{Name: name, ContentTypes: cts, Command: []string{"/bin/" + name}}
	}
	companion := func(name string, cts ...string) Spec {
		return Spec{Name: name, ContentTypes: cts, Command: []string{"/bin/" + name}, Companion: true}
	}
	tests := []struct {
		name      string
		specs     []Spec
		mediaType string
		want      string
	}{
		{"exact tie: external beats built-in", []Spec{builtin("text", "text/csv", "text/*"), external("csv", "text/csv")}, "text/csv", "csv"},
		{"exact tie, external listed first", []Spec{external("csv", "text/csv"), builtin("text", "text/csv")}, "text/csv", "csv"},
		{"exact beats external wildcard", []Spec{builtin("text", "text/plain"), external("any", "text/*")}, "text/plain", "text"},
		{"external wildcard beats built-in wildcard", []Spec{builtin("text", "text/*"), external("any", "text/*")}, "text/x-log", "any"},
		{"suffix beats wildcard", []Spec{external("any", "application/*"), builtin("json", "application/*+json")}, "application/ld+json", "json"},
		{"exact tie: external beats companion", []Spec{companion("html", "text/html"), external("mine", "text/html")}, "text/html", "mine"},
		{"built-in when no external matches", []Spec{builtin("text", "text/csv"), external("csv", "text/tab-separated-values")}, "text/csv", "text"},
		{"digesters route nothing", []Spec{{Name: "llm", Digester: true, ContentTypes: []string{"text/csv"}}}, "text/csv", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := RouteSpec(tc.specs, tc.mediaType)
			if got != tc.want {
				t.Errorf("RouteSpec(%s) = %q, want %q", tc.mediaType, got, tc.want)
			}
			h := &Host{}
			for _, s := range tc.specs {
				if s.Digester {
					continue
				}
				for _, ct := range s.ContentTypes {
					h.routes = append(h.routes, route{pattern: ct, name: s.Name, external: s.thirdParty()})
				}
			}
			if got, _, _ := h.Route(tc.mediaType); got != tc.want {
				t.Errorf("Route(%s) = %q, want %q", tc.mediaType, got, tc.want)
			}
		})
	}
}

// TestTwoExternalsClaimingOneTypeAreRefused: the only tie Route could not
// settle by its rules is refused when the configuration is checked, naming
// both blocks.
func TestTwoExternalsClaimingOneTypeAreRefused(t *testing.T) {
	self := testSpec(t, "").Command[0]
	_, diags := planBlocks(t, fmt.Sprintf(`
extractor "csv" {
  command       = [%[1]q]
  sha256        = %[2]q
  content_types = ["text/csv"]
}
extractor "tables" {
  command       = [%[1]q]
  sha256        = %[2]q
  content_types = ["TEXT/CSV", "text/tab-separated-values"]
}`, self, testFileSHA256(t, self)), nil)
	if !diags.HasErrors() {
		t.Fatal("two external plugins claiming text/csv were accepted")
	}
	msg := diags.Error()
	for _, want := range []string{`"csv"`, `"tables"`, "text/csv", "test.hcl:2", "remove it from the content_types"} {
		if !strings.Contains(msg, want) {
			t.Errorf("diagnostic %q does not name %q", msg, want)
		}
	}
}

// TestExternalPluginInfoIsUsed: an external block without content_types
// gets those the plugin announces, and one announcing the costly
// capability is put behind admission, as built-ins are.
func TestExternalPluginInfoIsUsed(t *testing.T) {
	self := testSpec(t, "").Command[0]
	t.Setenv(envTestCostly, "1")
	specs, diags := planBlocks(t, fmt.Sprintf(`
extractor "mine" {
  command = [%q]
  sha256  = %q
  env     = [%q]
  pool    = 2
}`, self, strings.ToUpper(testFileSHA256(t, self)), envTestCostly), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	s := specs[len(specs)-1]
	if s.Name != "mine" || strings.Join(s.ContentTypes, ",") != "text/x-test" {
		t.Fatalf("content types %q, want the announced text/x-test", s.ContentTypes)
	}
	if s.Info.Version != "0.0.1" || s.PerCaller != 1 {
		t.Errorf("info %+v, per_caller %d: want version 0.0.1 and admission at half the pool", s.Info, s.PerCaller)
	}
	h, diags := Start(t.Context(), specs[len(specs)-1:], Options{Stderr: io.Discard})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	t.Cleanup(h.Close)
	if _, ex, _ := h.Route("text/x-test"); fmt.Sprintf("%T", ex) != "*host.admission" {
		t.Errorf("a costly external plugin routes to %T, not through admission", ex)
	}
}
