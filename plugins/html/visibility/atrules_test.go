package visibility

import (
	"slices"
	"strings"
	"testing"
)

func TestUnwrapAtRules(t *testing.T) {
	for _, tc := range []struct {
		sheet string
		reach atRuleReach
		want  string
	}{
		{`@media screen { .a { x: 0 } }`, reachEverywhere, `                .a { x: 0 }  `},
		{`@media print { .a { x: 0 } }`, reachSomewhere, `@media print { .a { x: 0 } }`},
		{`@media (max-width: 600px) { .a { x: 0 } }`, reachEverywhere, `@media (max-width: 600px) { .a { x: 0 } }`},
		{`@media (max-width: 600px) { .a { x: 0 } }`, reachSomewhere, `                            .a { x: 0 }  `},
		{`.b{y:1}@layer l{@supports (display:grid){.a{x:0}}}`, reachEverywhere, `.b{y:1}` + strings.Repeat(" ", len(`@layer l{@supports (display:grid){`)) + `.a{x:0}  `},
		{`@font-face { src: url(x) } .a { x: 0 }`, reachEverywhere, `@font-face { src: url(x) } .a { x: 0 }`},
		{`@media print { @media screen { .a { x: 0 } } }`, reachEverywhere, `@media print { @media screen { .a { x: 0 } } }`},
		{`.a { x: 0 } }} {`, reachEverywhere, `.a { x: 0 } }} {`},
	} {
		if got, _ := unwrapAtRules(tc.sheet, tc.reach); got != tc.want {
			t.Errorf("unwrapAtRules(%q, %d) =\n%q, want\n%q", tc.sheet, tc.reach, got, tc.want)
		}
	}
}

func TestUnwrappedSpans(t *testing.T) {
	sheet := `.a{x:0} @media screen { .b{x:0} @supports (x:y) { .c{x:0} } } .d{x:0} @layer l { .e{x:0}`
	_, spans := unwrapAtRules(sheet, reachEverywhere)
	for _, tc := range []struct {
		sel  string
		want bool
	}{{".a", false}, {".b", true}, {".c", true}, {".d", false}, {".e", true}} {
		if got := within(spans, strings.Index(sheet, tc.sel)); got != tc.want {
			t.Errorf("%s within an unwrapped at-rule = %v, want %v (spans %v)", tc.sel, got, tc.want, spans)
		}
	}
}

func TestMediaReach(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  atRuleReach
	}{
		{"screen", reachEverywhere},
		{"all", reachEverywhere},
		{"only screen and (min-width: 0)", reachEverywhere},
		{"not print", reachEverywhere},
		{"(width >= 0px)", reachEverywhere},
		{"(0 <= width)", reachEverywhere},
		{"print", reachNowhere},
		{"not screen", reachNowhere},
		{"(min-width: 4000px)", reachNowhere},
		{"(max-width: 600px)", reachSomewhere},
		{"screen and (min-width: 48rem)", reachSomewhere},
		{"(orientation: landscape)", reachSomewhere},
		{"print, screen", reachEverywhere},
		{"print, (max-width: 40em)", reachSomewhere},
	} {
		if got := mediaReach(tc.query); got != tc.want {
			t.Errorf("mediaReach(%q) = %d, want %d", tc.query, got, tc.want)
		}
	}
}

// isBomb is twelve :is() of eight arguments in one compound: 8^12
// selectors, had each argument been written out.
var isBomb = strings.Repeat(":is(.a,.b,.c,.d,.e,.f,.g,.h)", 12)

// TestExpandIsBounded: a selector too large to write out is given up
// after a few reads, not after reading every alternative (the 2 KB page
// holding isBomb took 30 s).
func TestExpandIsBounded(t *testing.T) {
	for _, sel := range []string{isBomb, strings.Repeat(":is(.a,.b) ", 40) + ".n", strings.Repeat(":where(:is(.a,.b),.c)", 9)} {
		calls := 0
		if got := expandCounted(sel, &calls); got != nil {
			t.Errorf("expandCounted(%.40q…) = %d selectors, want none", sel, len(got))
		}
		if calls > maxExpandCalls+1 {
			t.Errorf("expandCounted(%.40q…) read %d selectors, want at most %d", sel, calls, maxExpandCalls+1)
		}
	}
}

func TestExpandIs(t *testing.T) {
	for _, tc := range []struct {
		sel  string
		want []string
	}{
		{".a .b", []string{".a .b"}},
		{":is(.a, .z) .n", []string{".a .n", ".z .n"}},
		{"p:where(.a,.b)", []string{"p.a", "p.b"}},
		{":is(.a .b) > .n", []string{".a .b > .n"}},
		{"p:is(.a .b)", nil},
		{":is(.a, :where(.b, .c)) .n", []string{".a .n", ".b .n", ".c .n"}},
		{":is(.a", nil},
		{":is(a,b,c,d) :is(a,b,c,d) :is(a,b)", nil},
		{strings.Repeat(":is(", 5000) + ".a" + strings.Repeat(")", 5000), nil},
		{isBomb, nil},
	} {
		if got := expandIs(tc.sel); !slices.Equal(got, tc.want) {
			t.Errorf("expandIs(%q) = %q, want %q", tc.sel, got, tc.want)
		}
	}
}
