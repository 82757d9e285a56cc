package service

import (
	"regexp/syntax"
	"strings"
	"testing"
)

// hostileGrep are patterns whose matching costs far more than their
// length: nested and counted repeats, and one merely too long.
var hostileGrep = []string{
	strings.Repeat(`(?:a?){1000}`, 20) + "b",
	`(?:a?){1000}b`,
	`(?:(?:a?){30}){30}b`,
	`(?:a|b|c|d){300}x`,
	`(?:\w+\s*){200}z`,
	`(?i)(?:[a-z0-9]{1,50}){20}q`,
	`((((a*)*)*)*){100}b`,
	`(?:.{0,100}){10}b`,
	`[\p{L}\p{N}]{500}`,
	strings.Repeat("a|", 200) + "b",
}

// FuzzCompileGrep: any pattern either compiles within the caps or is a 400
// naming grep; none panics.
func FuzzCompileGrep(f *testing.F) {
	for _, p := range append([]string{`(?i)price|cost`, `^\s*#`, `a{2,5}`, `[`, `(?:a?){1000}b`}, hostileGrep...) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		re, ae := compileGrep(pattern)
		if ae != nil {
			if ae.Status != 400 || re != nil {
				t.Fatalf("%q: %v", pattern, ae)
			}
			return
		}
		parsed, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil {
			t.Fatalf("%q accepted but does not parse: %v", pattern, err)
		}
		prog, _ := syntax.Compile(parsed.Simplify())
		if len(pattern) > MaxGrepPattern || len(prog.Inst) > MaxGrepProgram {
			t.Fatalf("%q accepted over the caps", pattern)
		}
	})
}
