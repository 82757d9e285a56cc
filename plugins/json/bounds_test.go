package json

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/itchyny/gojq"

	"github.com/siftd/sift/internal/testkit/loadtest"
	"github.com/siftd/sift/plugins/sdk"
)

// TestBoundedOpsKeepSemantics: the rewritten `*`, `+`, `*=` and `+=` answer
// as jq does.
func TestBoundedOpsKeepSemantics(t *testing.T) {
	tests := []struct{ program, input, want string }{
		{`"ab" * 3`, `null`, `"ababab"`},
		{`3 * "ab"`, `null`, `"ababab"`},
		{`"ab" * 0`, `null`, `""`},
		{`2 * 3.5`, `null`, `7`},
		{`{"a": {"b": 1}} * {"a": {"c": 2}}`, `null`, `{"a":{"b":1,"c":2}}`},
		{`[1] + [2]`, `null`, `[1,2]`},
		{`null + 1`, `null`, `1`},
		{`"a" + "b"`, `null`, `"ab"`},
		{`{"a": 1} + {"b": 2}`, `null`, `{"a":1,"b":2}`},
		{`.a += 1`, `{"a": 1}`, `{"a":2}`},
		{`.[] += 10`, `[1, 2]`, `[11,12]`},
		{`.a *= .b`, `{"a": 2, "b": 3}`, `{"a":6,"b":3}`},
		{`.a += (1, 2)`, `{"a": 0}`, `[{"a":1},{"a":2}]`},
		{`reduce .[] as $x (0; . + $x)`, `[1, 2, 3]`, `6`},
		{`def f(x): x * 2; f(.a)`, `{"a": 4}`, `8`},
		{`1 + 2 * 3`, `null`, `7`},
		{`9223372036854775807 + 1`, `null`, `9223372036854775808`},
		{`4611686018427387904 * 4`, `null`, `18446744073709551616`},
		{`-9223372036854775807 * -1`, `null`, `9223372036854775807`},
		{`.a + .b`, `{"a": 1.5, "b": 2}`, `3.5`},
		{`reduce range(5) as $x (0; . + $x * 2)`, `null`, `20`},
	}
	for _, tc := range tests {
		got, err := runJQ(context.Background(), []byte(tc.input), tc.program)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s on %s = %s, %v; want %s", tc.program, tc.input, got, err, tc.want)
		}
	}
}

// hostileJQ are programs that build a huge value in few steps or spin
// forever. Each must end with a clear error, quickly.
var hostileJQ = []string{
	`"a" * 1e9`,
	`1e9 * "a"`,
	`"abc" * 4e8`,
	`.x = ("a" * 1e9)`,
	`.x *= 1e9`,
	`reduce range(40) as $i ("a"; . + .)`,
	`reduce range(40) as $i ([1]; . + .)`,
	`.x += ("a" * 2e6)`,
	strings.Repeat(".", MaxProgram+1),
	`tostring * 1e9`,
}

// TestLoopingJQEndsAtItsDeadline: a program that never ends answers with
// an invalid error at QueryTimeout.
func TestLoopingJQEndsAtItsDeadline(t *testing.T) {
	for _, program := range []string{`[repeat(1)]`, `last(range(1e12))`} {
		began := time.Now()
		_, err := runJQ(context.Background(), []byte(`{}`), program)
		took := time.Since(began)
		var de *sdk.DocError
		if !errors.As(err, &de) || de.Message != "jq: program ran past 2s" {
			t.Errorf("%s: %v", program, err)
		}
		if took > QueryTimeout+time.Second {
			t.Errorf("%s: took %s, past the %s limit", program, took, QueryTimeout)
		}
	}
}

// TestHostileJQIsBounded: each hostile program ends with an invalid error
// inside the documented 2 s, and all ten together cost under 2 CPU-seconds.
func TestHostileJQIsBounded(t *testing.T) {
	start := loadtest.CPUTime(t)
	for _, program := range hostileJQ {
		began := time.Now()
		_, err := runJQ(context.Background(), []byte(`{"x": "abc"}`), program)
		took := time.Since(began)
		var de *sdk.DocError
		if !errors.As(err, &de) || de.Class != "invalid" || !strings.HasPrefix(de.Message, "jq: ") {
			t.Errorf("%.40s: %v, want an invalid jq error", program, err)
		}
		if took > QueryTimeout+time.Second {
			t.Errorf("%.40s: took %s, past the %s limit", program, took, QueryTimeout)
		}
	}
	if spent := loadtest.CPUTime(t) - start; spent > 2*time.Second {
		t.Errorf("ten hostile programs cost %s of CPU, want under 2s", spent)
	}
}

// FuzzBoundedJQ: the rewrite of `*` and `+` never panics and keeps every
// program that parses compilable.
func FuzzBoundedJQ(f *testing.F) {
	for _, p := range append([]string{`.a += 1`, `.[] *= 2`, `def f: . + 1; f`, `{(.a + "x"): (1 * 2)}`,
		`reduce .[] as [$a, $b] (0; . + $a * $b)`, `try (. + 1) catch .`, `.a |= . + 1`}, hostileJQ...) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, program string) {
		query, err := gojq.Parse(program)
		if err != nil {
			return
		}
		if _, plainErr := gojq.Compile(query); plainErr != nil {
			return
		}
		query, _ = gojq.Parse(program)
		if _, err := boundedOps(query); err != nil {
			t.Fatalf("%q compiles plain but not bounded: %v", program, err)
		}
	})
}
