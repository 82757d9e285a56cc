package visibility

import (
	"strings"
	"testing"
)

func TestUnescapeCSS(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`display:none`, `display:none`},
		{`disp\lay:none`, `display:none`},
		{`display: n\6f ne`, `display: none`},
		{`display: n\00006fne`, `display: none`},
		{`display: \6e\6f\6e\65`, `display: none`},
		{`color: \23 fff`, `color: \23 fff`}, // an identifier, no colour
		{`opacity: \30`, `opacity: \30`},     // an identifier, no number
		{`content: "a\
b"`, `content: "ab"`},
		{`x\0 y`, "x\uFFFDy"},
		{`x\110000 y`, "x\uFFFDy"},
		{`x\D800 y`, "x\uFFFDy"},
		{`end\`, "end\uFFFD"},
		{`\É`, `É`},
	} {
		if got := unescapeCSS(tc.in); got != tc.want {
			t.Errorf("unescapeCSS(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEscapesInDeclarations(t *testing.T) {
	sheet := `.md\:hidden { display: none } .a { d\isplay: none } .b { .c\:d { color: red } } .e { color: \72 ed }`
	var got []string
	for _, i := range escapesInDeclarations(sheet) {
		got = append(got, sheet[i:i+2])
	}
	if want := []string{`\i`, `\7`}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("escapes in declarations = %q, want %q", got, want)
	}
}
