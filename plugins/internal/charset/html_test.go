package charset

import (
	"strings"
	"testing"
)

// TestMetaLabel: the prescan finds the charset a page's <meta> declares,
// in either form, and nothing else.
func TestMetaLabel(t *testing.T) {
	tests := []struct{ page, want string }{
		{`<meta charset="Shift_JIS">`, "Shift_JIS"},
		{`<META CHARSET=euc-kr>`, "euc-kr"},
		{`<meta http-equiv="Content-Type" content="text/html; charset=gb18030">`, "gb18030"},
		{`<meta content="text/html;charset='windows-1252'" http-equiv=content-type>`, "windows-1252"},
		{`<meta content="text/html; charset=gb18030">`, ""}, // no pragma
		{`<meta name="description" content="charset=koi8-r">`, ""},
		{`<meta charset="">`, ""},
		{`<p>` + strings.Repeat("x", prescanBytes) + `<meta charset="big5">`, ""}, // past the prescan
		{`<title>x</title>`, ""},
	}
	for _, tt := range tests {
		if got := metaLabel([]byte(tt.page)); got != tt.want {
			t.Errorf("metaLabel(%.60q) = %q, want %q", tt.page, got, tt.want)
		}
	}
}

// TestBinary: random bytes and control bytes are binary; text in any
// charset, and UTF-16 with its mark, is not.
func TestBinary(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		binary bool
	}{
		{"nul run", "<p>" + strings.Repeat("\x00", 16) + "</p>", true},
		{"one stray nul", "<p>" + strings.Repeat("text ", 100) + "\x00</p>", false},
		{"shift_jis", "\x82\xa0\x82\xa2\x82\xa4", false},
		{"escapes and tabs", "\x1b$B$3$s\x1b(B\t\n\f\r", false},
		{"utf-16 with mark", "\xff\xfe<\x00p\x00>\x00", false},
		{"utf-8 mark, then nuls", "\xef\xbb\xbf\x00\x00\x00", true},
	}
	for _, tt := range tests {
		if err := Binary([]byte(tt.body)); (err != nil) != tt.binary {
			t.Errorf("%s: Binary = %v, want binary %v", tt.name, err, tt.binary)
		}
	}
}
