package html

import "testing"

// TestNestedRulesKeepTheirParents: a rule with rules nested in it keeps
// its own declarations, before and after them; its nested rules are
// rules of their own.
func TestNestedRulesKeepTheirParents(t *testing.T) {
	for _, tc := range []struct {
		name, sheet, element string
		gone                 bool
	}{
		{"hiding before a nested rule", `.w { display: none; & .y { color: red } }`, `<div class="w"><p>W</p></div>`, true},
		{"hiding before a nested state", `.x { display: none; &:hover { color: red } }`, `<p class="x">W</p>`, true},
		{"hiding after a nested rule", `.w { & .y { color: red } visibility: hidden }`, `<div class="w"><p>W</p></div>`, true},
		{"a nested rule hides", `.w { color: #222; & .y { display: none } }`, `<div class="w"><p class="y">W</p></div>`, true},
		{"white text on the parent's dark band", `body { background: #fff } .w { background: #1b1b1b; & p { color: #fff } }`, `<div class="w"><p>W</p></div>`, false},
		{"the parent's declarations reach only the parent", `.w { color: red; & .y { display: none } }`, `<div class="w"><p>W</p></div>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if gone := wordRemoved(t, `<style>`+tc.sheet+`</style>`, "", tc.element); gone != tc.gone {
				t.Errorf("removed = %v, want %v", gone, tc.gone)
			}
		})
	}
}
