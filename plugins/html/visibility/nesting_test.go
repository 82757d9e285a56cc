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
		// past maxNesting a rule stands on its own, "&" any element
		{`.a{.b{.c{.d{.e{.f{.g{.h{.i{.n{x:0}}}}}}}}}}`, "" +
			".n{x:0}\n" +
			".i{}\n.a .b .c .d .e .f .g .h{}\n.a .b .c .d .e .f .g{}\n.a .b .c .d .e .f{}\n.a .b .c .d .e{}\n.a .b .c .d{}\n.a .b .c{}\n.a .b{}\n"},
		{`.a{.b{.c{.d{.e{.f{.g{.h{.i{&.n{x:0}}}}}}}}}}`, "*.n{x:0}\n" +
			".i{}\n.a .b .c .d .e .f .g .h{}\n.a .b .c .d .e .f .g{}\n.a .b .c .d .e .f{}\n.a .b .c .d .e{}\n.a .b .c .d{}\n.a .b .c{}\n.a .b{}\n"},
	} {
		if got := nestedRules(tc.sheet); got != tc.want {
			t.Errorf("nestedRules(%q) =\n%q, want\n%q", tc.sheet, got, tc.want)
		}
	}
}

func TestRelaxIs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`:is(.a, .b) .n`, `* .n`},
		{`.x:is(.a, .b) > .n`, `.x > .n`},
		{`.x :where(.a) .n`, `.x * .n`},
		{`:is(.a):is(.b).n`, `.n`},
		{`.n:is(.a, .b)`, `.n`},
		{`.x > :is(.a,.b)`, `.x > *`},
		{`.x:not(:is(.a, .b)) .n`, ``},
		{`:is(.a, .b`, ``},
	} {
		if got := relaxIs(tc.in); got != tc.want {
			t.Errorf("relaxIs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
