package service

import (
	"strings"
	"testing"
)

// hasWords agrees with counting strings.Fields.
func TestHasWords(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", " ", "one", " one two ", "a\u00a0b\tc\nd", strings.Repeat("w ", 29), strings.Repeat("w ", 30), "héllo wörld  ", "\u2003x\u2003y"} {
		for _, n := range []int{1, 2, 3, 29, 30, 31} {
			if got, want := hasWords(s, n), len(strings.Fields(s)) >= n; got != want {
				t.Errorf("hasWords(%q, %d) = %v, want %v", s, n, got, want)
			}
		}
	}
}
