package visibility

import "testing"

func TestNestedRules(t *testing.T) {
	for _, tc := range []struct{ sheet, want string }{
		{`.a { color: red; & .n { display: none } }`, ".a .n{ display: none }\n"},
		{`.a { .n { opacity: 0 } }`, ".a .n{ opacity: 0 }\n"},
		{`.a { &.on { x: 1 } > .c { y: 2 } }`, ".a.on{ x: 1 }\n.a > .c{ y: 2 }\n"},
		{`.a, .b { .n { x: 0 } }`, ":is(.a, .b) .n{ x: 0 }\n"},
		{`.a { .b { .c { x: 0 } } }`, ".a .b .c{ x: 0 }\n.a .b{ }\n"},
		{`.a { x: 0 } .b { y: 1 }`, ""},
		{`@font-face { .n { x: 0 } }`, ""},
		{`.a { @media print { .n { x: 0 } } }`, ""},
		{`.a { .n { x: 0 }`, ".a .n{ x: 0 }\n"},
		{`}} .a { .n { x: 0 } }`, ".a .n{ x: 0 }\n"},
	} {
		if got := nestedRules(tc.sheet); got != tc.want {
			t.Errorf("nestedRules(%q) =\n%q, want\n%q", tc.sheet, got, tc.want)
		}
	}
}
