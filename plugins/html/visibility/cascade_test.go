package visibility

import (
	"slices"
	"testing"

	"github.com/andybalholm/cascadia"
)

// TestOutranks: importance, then layers (reversed for important
// declarations), then specificity, then order decide the cascade.
func TestOutranks(t *testing.T) {
	low, high := cascadia.Specificity{0, 1, 0}, cascadia.Specificity{0, 2, 0}
	for _, tc := range []struct {
		name string
		p, q precedence
		want bool
	}{
		{"important over more specific", precedence{important: true, spec: low}, precedence{spec: high, order: 9}, true},
		{"unlayered over a more specific layered", precedence{spec: low}, precedence{layered: true, spec: high, order: 9}, true},
		{"important layered over important unlayered", precedence{important: true, layered: true, spec: low}, precedence{important: true, spec: high}, true},
		{"more specific", precedence{spec: high}, precedence{spec: low, order: 9}, true},
		{"later at equal specificity", precedence{spec: low, order: 2}, precedence{spec: low, order: 1}, true},
		{"earlier at equal specificity", precedence{spec: low, order: 1}, precedence{spec: low, order: 2}, false},
	} {
		if got := tc.p.outranks(tc.q); got != tc.want {
			t.Errorf("%s: outranks = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestLayerBlocks: @layer blocks are found, statements naming layers and
// unclosed blocks too.
func TestLayerBlocks(t *testing.T) {
	for _, tc := range []struct {
		sheet string
		want  [][2]int
	}{
		{"@layer a, b; .x{}", nil},
		{"@layer a { .x{} } .y{}", [][2]int{{0, 17}}},
		{"@layer a { .x{ } @layer b { .y{} } }", [][2]int{{0, 36}}},
		{"@layer { .x{", [][2]int{{0, 12}}},
	} {
		if got := layerBlocks(tc.sheet); !slices.Equal(got, tc.want) {
			t.Errorf("layerBlocks(%q) = %v, want %v", tc.sheet, got, tc.want)
		}
	}
}

// TestSpecificityOfWhere: what stands in a :where() counts for nothing.
func TestSpecificityOfWhere(t *testing.T) {
	for _, tc := range []struct {
		origin, written string
		want            cascadia.Specificity
	}{
		{".t", ".t", cascadia.Specificity{0, 1, 0}},
		{":where(.t)", ".t", cascadia.Specificity{}},
		{".prose :where(p)", ".prose p", cascadia.Specificity{0, 1, 0}},
		{"p:where(.a, .b)", "p.a", cascadia.Specificity{0, 0, 1}},
		{":where(.a) > .b", ".a > .b", cascadia.Specificity{0, 1, 0}},
		{"#x :is(.a)", "#x .a", cascadia.Specificity{1, 1, 0}},
	} {
		sel, ok := parseSelector(tc.written)
		if !ok {
			t.Fatalf("%q does not parse", tc.written)
		}
		if got := specificity(tc.origin, sel); got != tc.want {
			t.Errorf("specificity(%q) = %v, want %v", tc.origin, got, tc.want)
		}
	}
}
