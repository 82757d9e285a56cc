package visibility

import (
	"fmt"
	"strings"
	"testing"
)

// TestResolveVars: custom properties are written out through chains, a
// loop or an invalid property takes the fallback, and a value that would
// grow without bound is invalid, as browsers have them.
func TestResolveVars(t *testing.T) {
	chain := func(n int) map[string]string {
		d := map[string]string{"--v0": "#fff", "color": fmt.Sprintf("var(--v%d)", n-1)}
		for i := 1; i < n; i++ {
			d[fmt.Sprintf("--v%d", i)] = fmt.Sprintf("var(--v%d)", i-1)
		}
		return d
	}
	laughs := map[string]string{"--v0": "#fff", "color": "var(--v39)"}
	for i := 1; i < 40; i++ {
		laughs[fmt.Sprintf("--v%d", i)] = fmt.Sprintf("var(--v%d) var(--v%d)", i-1, i-1)
	}
	for _, tc := range []struct {
		name  string
		decls map[string]string
		want  string
	}{
		{"a chain of five", chain(5), "#fff"},
		{"a chain of thirty", chain(30), "#fff"},
		{"a loop takes the fallback", map[string]string{"--a": "var(--b)", "--b": "var(--a)", "color": "var(--a,#fff)"}, "#fff"},
		{"a property naming itself takes the fallback", map[string]string{"--a": "var(--a)", "color": "var(--a,#fff)"}, "#fff"},
		{"a fallback with parentheses", map[string]string{"color": "var(--x,rgb(255,255,255))"}, "rgb(255,255,255)"},
		{"a fallback naming another", map[string]string{"--y": "#000", "color": "var(--x,var(--y))"}, "#000"},
		{"unset without a fallback is invalid", map[string]string{"color": "var(--x)"}, ""},
		{"a value growing without bound is invalid", laughs, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resolveVars(tc.decls, nil)
			if got := tc.decls["color"]; got != tc.want {
				t.Errorf("color = %.60q, want %q", got, tc.want)
			}
		})
	}
	// A chain past the substitutions' bound is given up, not followed.
	long := chain(maxVarSubstitutions + 10)
	resolveVars(long, nil)
	if got := long["color"]; strings.Contains(got, "var(") {
		t.Errorf("a chain past the bound left %q", got)
	}
}
