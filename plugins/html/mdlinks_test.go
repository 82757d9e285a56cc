package html

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mdLink is the regular expression markdownLinks does the work of, the
// reference its tests compare it with.
var mdLink = regexp.MustCompile(`\[(` + mdLinkText + `)\]\([^)]*\)`)

// linkBounds is what markdownLinks finds in s, as the regular
// expression's submatch indexes.
func linkBounds(s string) [][]int {
	var got [][]int
	markdownLinks(s, func(start, textStart, textEnd, end int) {
		got = append(got, []int{start, end, textStart, textEnd})
	})
	return got
}

// TestMarkdownLinks: markdownLinks finds the links mdLink finds, at the
// same bounds, on hand-made blocks and on 20,000 random strings of the
// characters that matter (brackets, parentheses, backslashes, line ends,
// a multibyte letter, an invalid byte).
func TestMarkdownLinks(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if want, got := mdLink.FindAllStringSubmatchIndex(s, -1), linkBounds(s); !slices.EqualFunc(want, got, slices.Equal) {
			t.Errorf("markdownLinks(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{
		"", "[", "[]()", "[a](b)", "x [a](b) y [c d](e f) z", "![img 1](/i/1.jpg)![img 2](/i/2.jpg)",
		`[a\]b](c)`, `[a\\](c)`, "[a\\\n](c)", `[a\`, "[a](b", "[[a](b)", "[a] (b)", "[a][b](c)",
		"[é\\é](ü)", "[a\xff](b)", "[a\\\xff](b)", "[[[[[[x", "[a\n\nb](c\n)",
	} {
		check(s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"[", "]", "(", ")", `\`, "\n", "a", " ", "!", "é", "\xff"}
	for range 20_000 {
		var b strings.Builder
		for range r.IntN(24) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		check(b.String())
	}
}

// BenchmarkMarkdownLinks compares markdownLinks with the regular
// expression it replaced on a gallery's one block of 10,000 images.
func BenchmarkMarkdownLinks(b *testing.B) {
	var sb strings.Builder
	for i := range 10_000 {
		sb.WriteString("![img " + strings.Repeat("1", i%5+1) + "](https://example.com/i/1.jpg)")
	}
	block := sb.String()
	b.Run("regexp", func(b *testing.B) {
		b.SetBytes(int64(len(block)))
		for b.Loop() {
			mdLink.FindAllStringSubmatchIndex(block, -1)
		}
	})
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(len(block)))
		for b.Loop() {
			markdownLinks(block, func(int, int, int, int) {})
		}
	})
}
