package visibility

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// FuzzInvisibleRules: any stylesheet is read without a panic.
func FuzzInvisibleRules(f *testing.F) {
	for _, seed := range []string{".a{opacity:0}", "#b c.d{font-size:0}", "@media x{.e{opacity:0}}", "{{color:#fff;background:#fff", ".f{height:0;overflow:hidden}}}",
		"@media screen{@layer a{:is(.a,p) .b{display:none}}}", "@supports (x){:where(p){scale:0}}", "@media (width>=0){.a{translate:0 -9999px}}}", ".a{.b{&.c{opacity:0}}}", ".a,.b{>.c{display:none}"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, sheet string) {
		declaringRules([]string{sheet}, []string{asciiLower(sheet)}, hintWords, invisibleHint, func(d declared) { invisibleSelectors(d) })
		root, err := html.Parse(strings.NewReader("<html><head><style>" + sheet + "</style></head><body><p class=a>x</p></body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = InvisibleNodes(root, PageRules(root), 1, func(*html.Node) int { return 1 })
		InvisibleStyle(sheet)
	})
}
