package visibility

import "testing"

// TestCanonicalColor: every spelling of an opaque colour is one #rrggbb;
// translucent colours and what is no colour come back as they are.
func TestCanonicalColor(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"#fff", "#ffffff"},
		{"#ffff", "#ffffff"},
		{"#ffffffff", "#ffffff"},
		{"#fafafa", "#fafafa"},
		{"white", "#ffffff"},
		{"grey", "#808080"},
		{"rgb(255,255,255)", "#ffffff"},
		{"rgb(255 255 255)", "#ffffff"},
		{"rgba(255, 255, 255, 1)", "#ffffff"},
		{"rgb(100% 100% 100% / 1)", "#ffffff"},
		{"hsl(0, 0%, 100%)", "#ffffff"},
		{"hsl(120deg 100% 25%)", "#008000"},
		{"#fff !important", "#ffffff"},
		{"rgba(0,0,0,0.5)", "rgba(0,0,0,0.5)"},
		{"#ffffff80", "#ffffff80"},
		{"#fff url(x.png)", "#fff url(x.png)"},
		{"linear-gradient(#fff,#fff)", "linear-gradient(#fff,#fff)"},
		{"rgb(300,0,0)", "rgb(300,0,0)"},
		{"#ggg", "#ggg"},
	} {
		if got := canonicalColor(tc.in); got != tc.want {
			t.Errorf("canonicalColor(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
