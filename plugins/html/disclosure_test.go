package html

import (
	"strings"
	"testing"
)

// TestDisclosuresOpened: the hidden element beside a collapsed disclosure
// button a reader sees (aria-expanded="false", no panel named) is read,
// as a click shows it; beside an empty, hidden or expanded control, a
// menu's button, or as a menu, it stays out.
func TestDisclosuresOpened(t *testing.T) {
	for _, tc := range []struct {
		name, markup string
		read         bool
	}{
		{"a button before its panel", `<button aria-expanded="false">Details</button><div hidden><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>`, true},
		{"Amazon's read more, in a row after the text", `<div class="a-expander-container"><div class="a-expander-content" style="display:none"><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>` +
			`<div class="a-row"><a aria-expanded="false" role="button" href="javascript:void(0)"><i class="a-icon"></i><span>Read more</span></a></div></div>`, true},
		{"an empty control", `<button aria-expanded="false"></button><div hidden><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>`, false},
		{"a hidden control", `<button aria-expanded="false" style="display:none">Details</button><div hidden><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>`, false},
		{"a transparent control", `<button aria-expanded="false" style="opacity:0">Details</button><div hidden><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>`, false},
		{"a control coloured as its background", `<button aria-expanded="false" style="color:#fff;background:#fff">Details</button><div hidden><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>`, false},
		{"a control boxed to nothing", `<button aria-expanded="false" style="width:0;height:0;overflow:hidden">Details</button><div hidden><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>`, false},
		{"a transparent control naming its panel", `<button aria-controls="p1" style="opacity:0">Details</button><div id="p1" hidden><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>`, false},
		{"an expanded control", `<button aria-expanded="true">Details</button><div hidden><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>`, false},
		{"a menu's button", `<button aria-expanded="false" aria-haspopup="true">Menu</button><div hidden><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>`, false},
		{"a menu", `<button aria-expanded="false">Menu</button><ul role="menu" hidden><li>THE-PANEL holds the words a reader reads once the menu opens, a paragraph of the details the button folds away.</li></ul>`, false},
		{"a greeting of a few words", `<button aria-expanded="false">Chat</button><div hidden><p>THE-PANEL hello there</p></div>`, false},
		{"links to share", `<button aria-expanded="false">Share</button><div hidden><p>THE-PANEL <a href="/l">Share on LinkedIn with a friend</a> <a href="/x">Post it to X for all to read</a></p></div>`, false},
		{"far from the control", `<div><div><div><button aria-expanded="false">Details</button></div></div></div><div hidden><p>THE-PANEL holds the words a reader reads once the panel opens, a paragraph of the details the button folds away.</p></div>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := parsePage(t, `<html><body><article><p>`+strings.Repeat("Visible words a reader sees. ", 20)+`</p>`+tc.markup+`</article></body></html>`)
			removeHidden(root)
			if read := strings.Contains(textOfNode(root), "THE-PANEL"); read != tc.read {
				t.Errorf("panel read = %v, want %v", read, tc.read)
			}
		})
	}
}
