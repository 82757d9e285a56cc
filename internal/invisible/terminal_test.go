package invisible

import "testing"

func TestEscape(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text unchanged", "Hello — ünïcödé 日本語\n\tindented\f", "Hello — ünïcödé 日本語\n\tindented\f"},
		{"CRLF unchanged", "a\r\nb", "a\r\nb"},
		{"screen clear", "a\x1b[2Jb", `a\x1b[2Jb`},
		{"window title", "\x1b]0;owned\x07", `\x1b]0;owned\x07`},
		{"hyperlink", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", `\x1b]8;;http://x\x1b\link\x1b]8;;\x1b\`},
		{"lone carriage return overwrites a line", "safe\rEVIL", `safe\x0dEVIL`},
		{"backspace and DEL", "a\bb\x7f", `a\x08b\x7f`},
		{"NUL", "a\x00b", `a\x00b`},
		{"C1 CSI as a character", "a\u009b2Jb", `a\u009b2Jb`},
		{"C1 CSI as a lone byte", "a\x9b2Jb", `a\x9b2Jb`},
		{"bidi override", "abc\u202Edef", `abc\u202edef`},
		{"tag characters", "x\U000E0041y", `x\U000e0041y`},
		{"trailing CR", "a\r", `a\x0d`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Escape([]byte(tc.in))); got != tc.want {
				t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzEscape(f *testing.F) {
	for _, seed := range []string{"", "plain", "\x1b[31mred", "\r\n\r", "\xc2\x9b", "\u202e"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		out := Escape(p)
		if firstToEscape(out) >= 0 {
			t.Fatalf("Escape(%q) = %q still holds something unsafe", p, out)
		}
	})
}
