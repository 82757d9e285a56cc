package invisible

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStrip(t *testing.T) {
	tests := []struct {
		name, in, want string
		removed        int
	}{
		{"plain text is untouched", "Hello, world.\n\tIndented — ünïcödé 日本語 👍", "Hello, world.\n\tIndented — ünïcödé 日本語 👍", 0},
		{"empty", "", "", 0},
		{"tag characters spelling an instruction", "Buy\U000E0049\U000E0047\U000E004E\U000E004F\U000E0052\U000E0045 now", "Buy now", 6},
		{"tag block ends", "a\U000E0000b\U000E007Fc", "abc", 2},
		{"bidi embeddings and overrides", "a\u202Ab\u202Bc\u202Cd\u202De\u202Ef", "abcdef", 5},
		{"bidi isolates", "a\u2066b\u2067c\u2068d\u2069e", "abcde", 4},
		{"directional marks", "a\u200Eb\u200Fc\u061Cd", "abcd", 3},
		{"zero-width characters", "ze\u200Bro\u200C wi\u200Ddth\u2060 \uFEFFbom", "zero width bom", 5},
		{"soft hyphens", "Donau\u00ADdampf\u00ADschiff", "Donaudampfschiff", 2},
		{"invisible operators", "x\u2061y\u2064z", "xyz", 2},
		{"variation selectors 17-256", "a\U000E0100\U000E01EFb", "ab", 2},
		{"ordinary variation selector kept", "\u2764\uFE0F", "\u2764\uFE0F", 0},
		{"C0 controls", "a\x00b\x07c\x08d\x1be[31m\x7f", "abcde[31m", 5},
		{"C1 controls", "a\u0080b\u009bc\u0085", "abc", 3},
		{"newline and tab kept", "a\nb\tc", "a\nb\tc", 0},
		{"CRLF becomes LF, uncounted", "one\r\ntwo\r\n", "one\ntwo\n", 0},
		{"lone CR becomes LF, uncounted", "shown\rhidden", "shown\nhidden", 0},
		{"invalid UTF-8 becomes U+FFFD, uncounted", "a\xffb\x1b", "a\uFFFDb", 1},
		{"removal cannot join bytes into a removed character", "\xe2\x1b\x80\xae", "\uFFFD\uFFFD\uFFFD", 1},
		{"non-characters next to removed ones", "\u00A0\u00AD\u00AE", "\u00A0\u00AE", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, n := Strip(tc.in)
			if got != tc.want || n != tc.removed {
				t.Errorf("Strip(%q) = %q, %d; want %q, %d", tc.in, got, n, tc.want, tc.removed)
			}
		})
	}
}

func TestCounterWarning(t *testing.T) {
	var c Counter
	if got := c.Strip("clean"); got != "clean" || c.Warning() != "" {
		t.Fatalf("clean text: %q, warning %q", got, c.Warning())
	}
	c.Strip("a\u200Bb")
	c.Strip("\U000E0041\U000E0042")
	if c.Count() != 3 || !strings.HasPrefix(c.Warning(), "removed 3 invisible or control characters") {
		t.Errorf("count %d, warning %q", c.Count(), c.Warning())
	}
}

func TestStripReturnsCleanTextUnallocated(t *testing.T) {
	s := strings.Repeat("plain words and ünïcödé ", 100)
	if allocs := testing.AllocsPerRun(10, func() { Strip(s) }); allocs != 0 {
		t.Errorf("Strip of clean text allocated %v times", allocs)
	}
}

func FuzzStrip(f *testing.F) {
	for _, seed := range []string{"", "plain", "a\u200Bb", "\U000E0041", "\r\n\r", "\x1b]0;title\x07", "\xff\xfe", "\u202Egnp.exe"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, n := Strip(s)
		if again, m := Strip(out); again != out || m != 0 {
			t.Fatalf("Strip is not idempotent: %q → %q → %q", s, out, again)
		}
		if len(out) > 3*len(s) {
			t.Fatalf("Strip grew %q to %q", s, out)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("Strip(%q) = %q, not valid UTF-8", s, out)
		}
		for _, r := range out {
			if r == '\r' || Removed(r) {
				t.Fatalf("%q left in %q", r, out)
			}
		}
		if n == 0 && utf8.ValidString(s) && !strings.ContainsRune(s, '\r') && out != s {
			t.Fatalf("nothing counted, yet %q became %q", s, out)
		}
	})
}
