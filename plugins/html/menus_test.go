package html

import (
	"strings"
	"testing"
)

// A menu a control opens goes even when nothing but the stylesheet shuts
// it; a region the control opens (an accordion's panel) is content.
func TestMenusControlsOpenRemoved(t *testing.T) {
	for _, tc := range []struct {
		name, page string
		kept       bool
	}{
		{"dropdown class", `<a data-panel-id="ch" href="#">Chapters</a><div id="ch" class="dropdown-panel">MARK</div>`, false},
		{"menu role", `<button aria-controls="m">Menu</button><ul id="m" role="menu"><li>MARK</li></ul>`, false},
		{"menu id", `<button data-bs-target="#main-menu">Menu</button><nav id="main-menu">MARK</nav>`, false},
		{"accordion region named drawer", `<button aria-controls="drawer-1">Pricing</button><div id="drawer-1" role="region" class="drawer-menu">MARK</div>`, true},
		{"tab panel", `<button aria-controls="t1">Tab</button><div id="t1" role="tabpanel">MARK</div>`, true},
		{"dropdown no control names", `<div id="x" class="dropdown">MARK</div>`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, "<html><body><p>Intro text.</p>"+tc.page+"</body></html>")
			removeHidden(root)
			if got := strings.Contains(textOfNode(root), "MARK"); got != tc.kept {
				t.Errorf("MARK kept = %v, want %v", got, tc.kept)
			}
		})
	}
}
