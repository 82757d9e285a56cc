package visibility

import (
	"strings"
	"testing"
)

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
		{"rgb(300,0,0)", "#ff0000"}, // clamped, as browsers clamp it
		{"rgb(300 300 300)", "#ffffff"},
		{"rgb(255 255 none)", "#ffff00"},
		{"hsl(0.5turn 0% 100%)", "#ffffff"},
		{"hsl(1rad 0% 100%)", "#ffffff"},
		{"hsl(200grad 100% 50%)", "#00ffff"},
		{"hsl(none none 100%)", "#ffffff"},
		{"rebeccapurple", "#663399"},
		{"#ggg", "#ggg"},
		{"#A00", "#aa0000"},
		{"RGBA(0,0,0,0.5)", "rgba(0,0,0,0.5)"},
		// every CSS named colour, and the other spaces of CSS Color 4 and 5
		{"lightgray", "#d3d3d3"},
		{"ghostwhite", "#f8f8ff"},
		{"hwb(0 100% 0%)", "#ffffff"},
		{"hwb(120 0% 0%)", "#00ff00"},
		{"hwb(0 60% 60%)", "#808080"},
		{"lab(100 0 0)", "#ffffff"},
		{"lab(100% 0 0)", "#ffffff"},
		{"lab(0 0 0)", "#000000"},
		{"lch(100 0 0)", "#ffffff"},
		{"lch(100 0 0 / 1)", "#ffffff"},
		{"lch(54.29 106.84 40.86)", "#ff0000"},
		{"oklab(1 0 0)", "#ffffff"},
		{"oklab(100% 0 0)", "#ffffff"},
		{"oklch(1 0 0)", "#ffffff"},
		{"oklch(62.8% 0.2577 29.23deg)", "#ff0000"},
		{"oklch(0.628 0.2577 0.0812turn)", "#ff0000"},
		{"oklch(1 0 none)", "#ffffff"},
		{"color(srgb 1 1 1)", "#ffffff"},
		{"color(srgb 100% 100% 100%)", "#ffffff"},
		{"color(srgb-linear 1 1 1)", "#ffffff"},
		{"color(display-p3 1 1 1)", "#ffffff"},
		{"color(xyz-d65 0.9505 1 1.089)", "#ffffff"},
		{"color(xyz-d50 0.9642 1 0.8251)", "#ffffff"},
		{"color-mix(in srgb, white, white)", "#ffffff"},
		{"color-mix(in srgb, white 100%, red)", "#ffffff"},
		{"color-mix(in srgb, red 0%, white)", "#ffffff"},
		{"color-mix(in srgb, #000, #fff)", "#808080"},
		{"color-mix(in oklab, white 100%, black)", "#ffffff"},
		{"color-mix(in oklch, white 100%, red)", "#ffffff"},
		{"color-mix(in lch, white, white)", "#ffffff"},
		{"color-mix(in hsl, white, white)", "#ffffff"},
		{"color-mix(in srgb, rgb(255 255 255) 50%, color(srgb 1 1 1))", "#ffffff"},
		// translucent, or not read: left as written
		{"oklch(1 0 0 / 0.5)", "oklch(1 0 0 / 0.5)"},
		{"color(rec2020 1 1 1)", "color(rec2020 1 1 1)"},
		{"color-mix(in srgb, white 20%, red 20%)", "color-mix(in srgb, white 20%, red 20%)"},
		{"color-mix(in srgb, white, transparent)", "color-mix(in srgb, white, transparent)"},
		{"color-mix(in oklch longer hue, white, white)", "color-mix(in oklch longer hue, white, white)"},
		{"lab(x 0 0)", "lab(x 0 0)"},
	} {
		if got := canonicalColor(tc.in); got != tc.want {
			t.Errorf("canonicalColor(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzCanonicalColor: any value a page writes comes back as it is or as
// an opaque #rrggbb, without a panic (color-mix() reads colours inside
// colours, and components in many units).
func FuzzCanonicalColor(f *testing.F) {
	for _, seed := range []string{"white", "#fff", "rgb(1 2 3)", "hwb(10 20% 30%)", "lab(50 20 -30 / 1)", "lch(50 30 1turn)",
		"oklch(0.5 0.1 200grad)", "color(display-p3 1 0 0)", "color-mix(in oklch, color-mix(in srgb, red, blue) 30%, white)",
		"color-mix(in srgb, , )", "color-mix(in lab, red 120%, blue)", "oklch(none none none)", "color()", "hwb(0 1e308% 0%)"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, value string) {
		got := canonicalColor(value)
		if got == value || len(got) == 7 && got[0] == '#' && strings.Trim(got[1:], "0123456789abcdef") == "" {
			return
		}
		if asciiLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "!important"))) == got {
			return // the value trimmed and lower-cased
		}
		t.Errorf("canonicalColor(%q) = %q: neither the value nor #rrggbb", value, got)
	})
}

func TestAlike(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"#ffffff", "#ffffff", true},
		{"#ffffff", "#fefefe", true},
		{"#ffffff", "#fafafa", true},
		{"#ffffff", "#eeeeee", false},
		{"#ffffff", "#fffff0", true}, // ivory: contrast 1.01
		{"#ffffff", "#ffff00", false},
		{"#000000", "#0a0a0a", true},
		{"#000000", "#333333", false},
		{"rgba(0,0,0,0.02)", "#ffffff", true},
		{"#ffffff", "rgb(0 0 0 / 2%)", true},
		{"rgba(0,0,0,0.5)", "#ffffff", false},
		{"#ffffff80", "#ffffff", true},
		{"#fff8", "#ffffff", true},
		{"rgba(0,0,0,0.5)", "rgba(255,255,255,0.5)", false},
		{"", "", false},
		{"transparent", "#ffffff", false},
	} {
		if got := alike(tc.a, tc.b); got != tc.want {
			t.Errorf("alike(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
