package html

import "testing"

func TestRestoreSpaces(t *testing.T) {
	const m = "\uE000"
	tests := []struct{ name, in, want string }{
		{"no markers", "a  b\n  c  ", "a  b\n  c  "},
		{"between words", "Buy" + m + "Akko", "Buy Akko"},
		{"blanks around marker collapse", "Buy " + m + m + "  Akko", "Buy Akko"},
		{"line start keeps indent", "  " + m + "- item", "  - item"},
		{"line end dropped", "end" + m + " ", "end"},
		{"several lines", m + "a" + m + "\n" + m + "b" + m + "c", "a\nb c"},
		{"marker-only line", m, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := restoreSpaces(tc.in); got != tc.want {
				t.Errorf("restoreSpaces(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
