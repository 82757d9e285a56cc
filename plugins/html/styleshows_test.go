package html

import "testing"

// TestStyleShowsWhatARuleFolds: an element's own style outranks a rule of
// the stylesheet that folds it, unless the rule is !important: a page
// saved after its scripts opened a panel holds the style they wrote.
func TestStyleShowsWhatARuleFolds(t *testing.T) {
	for _, tc := range []struct {
		name, sheet, element string
		gone                 bool
	}{
		{"display block over a rule's none", `.x { display: none }`, `<p class="x" style="display: block">W</p>`, false},
		{"visibility visible over a rule's hidden", `.x { visibility: hidden }`, `<p class="x" style="visibility:visible">W</p>`, false},
		{"an important rule wins", `.x { display: none !important }`, `<p class="x" style="display: block">W</p>`, true},
		{"a style of none adds nothing", `.x { display: none }`, `<p class="x" style="display: none">W</p>`, true},
		{"a style of another property", `.x { display: none }`, `<p class="x" style="color: red">W</p>`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if gone := wordRemoved(t, `<style>`+tc.sheet+`</style>`, "", tc.element); gone != tc.gone {
				t.Errorf("removed = %v, want %v", gone, tc.gone)
			}
		})
	}
}
