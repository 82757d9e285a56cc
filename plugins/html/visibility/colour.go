package visibility

import (
	"math"
	"strconv"
	"strings"

	"github.com/lucasb-eyer/go-colorful"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/image/colornames"
)

// Text coloured as its background is compared colour to colour, whatever
// way each is written: "#FFF", "#ffffffff", "white", "rgb(255 255 255)",
// "rgb(100%, 100%, 100%)" and "hsl(0 0% 100%)" are one colour, and an
// outside check hid text behind each spelling sift did not read.

// systemColors are the system colours of the light scheme a page is read
// in, and rebeccapurple, which CSS Color 4 named after the SVG table the
// other named colours come from (colornames.Map).
var systemColors = map[string]string{"canvas": "#ffffff", "canvastext": "#000000", "rebeccapurple": "#663399"}

// canonicalColor writes an opaque colour as #rrggbb; anything else (a
// translucent colour, an image, a gradient, a var()) comes back as it is,
// lower-cased.
func canonicalColor(c string) string {
	c = asciiLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c), "!important")))
	if system, ok := systemColors[c]; ok {
		return system
	}
	if rgba, ok := colornames.Map[c]; ok {
		return colorful.Color{R: float64(rgba.R) / 255, G: float64(rgba.G) / 255, B: float64(rgba.B) / 255}.Hex()
	}
	if hex, ok := strings.CutPrefix(c, "#"); ok {
		return canonicalHex(c, hex)
	}
	open := strings.IndexByte(c, '(')
	if open < 0 || !strings.HasSuffix(c, ")") {
		return c
	}
	if name := c[:open]; name != "rgb" && name != "rgba" && name != "hsl" && name != "hsla" {
		if colour, ok := spaceColour(name, c[open+1:len(c)-1]); ok {
			return colour.Clamped().Hex()
		}
		return c
	}
	args := strings.FieldsFunc(c[open+1:len(c)-1], func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
	if len(args) == 4 {
		if alpha, ok := fraction(args[3], 1); !ok || alpha != 1 {
			return c // translucent: not this colour
		}
		args = args[:3]
	}
	if len(args) != 3 {
		return c
	}
	var rgb [3]float64
	switch strings.TrimSuffix(c[:open], "a") {
	case "rgb":
		for i, a := range args {
			v, ok := channel(a, 255)
			if !ok {
				return c
			}
			rgb[i] = v
		}
	case "hsl":
		h, okH := hue(args[0])
		s, okS := channel(args[1], 100)
		l, okL := channel(args[2], 100)
		if !okH || !okS || !okL {
			return c
		}
		rgb = hslToRGB(h, s, l)
	default:
		return c
	}
	return colorful.Color{R: rgb[0], G: rgb[1], B: rgb[2]}.Clamped().Hex()
}

// canonicalHex writes #rgb, #rgba, #rrggbb and #rrggbbaa of full alpha
// as #rrggbb, and returns c for anything else.
func canonicalHex(c, hex string) string {
	if _, err := strconv.ParseUint(hex, 16, 64); err != nil {
		return c
	}
	switch len(hex) {
	case 4:
		if hex[3] != 'f' {
			return c
		}
		fallthrough
	case 3:
		return "#" + string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	case 8:
		if hex[6:] != "ff" {
			return c
		}
		return "#" + hex[:6]
	case 6:
		return c
	}
	return c
}

// nearColour is the difference, in CIEDE2000 as go-colorful measures it
// (a hundredth of ΔE00), under which two colours are one to a reader: a
// difference of 2 is seen, if at all, on large areas side by side, never
// in the strokes of letters. Text in #fefefe or #fafafa on white is
// unread, as it is in white; #f5f5f5 (2.0 from white) is the first grey
// not alike.
const nearColour = 0.02

// faintContrast and faintDistance bound the colours a reader cannot read
// one on the other though they differ in tint: a luminance contrast under
// 1.1 (WCAG's ratio; body text asks 4.5) and a CIEDE2000 difference under
// 10. Ivory, snow and mint cream on white are so (1.01 to 1.03); yellow on
// white (1.07, but 20 apart in hue) is read.
const (
	faintContrast = 1.1
	faintDistance = 0.10
)

// alike reports whether two colours, as canonicalColor writes them, are
// one to a reader: the same; two opaque colours nearer than nearColour, or
// too faint one on the other to read; or a translucent colour that, laid
// over the opaque other, is so (rgba(0,0,0,0.02) on white is #fafafa).
func alike(a, b string) bool {
	if a == b {
		return a != ""
	}
	ca, okA := opaqueHex(a)
	cb, okB := opaqueHex(b)
	switch {
	case okA && okB:
	case okB:
		if ca, okA = over(a, cb); !okA {
			return false
		}
	case okA:
		if cb, okB = over(b, ca); !okB {
			return false
		}
	default:
		return false
	}
	d := ca.DistanceCIEDE2000(cb)
	return d < nearColour || d < faintDistance && contrast(ca, cb) < faintContrast
}

// opaqueHex reads #rrggbb.
func opaqueHex(c string) (colorful.Color, bool) {
	if len(c) != 7 || c[0] != '#' {
		return colorful.Color{}, false
	}
	col, err := colorful.Hex(c)
	return col, err == nil
}

// opaqueColour reads any colour canonicalColor reads as opaque.
func opaqueColour(s string) (colorful.Color, bool) { return opaqueHex(canonicalColor(s)) }

// over lays the translucent colour c, as canonicalColor leaves it, over
// the opaque back: what a reader sees.
func over(c string, back colorful.Color) (colorful.Color, bool) {
	solid, alpha, ok := translucent(c)
	if !ok {
		return colorful.Color{}, false
	}
	return colorful.Color{
		R: solid.R*alpha + back.R*(1-alpha),
		G: solid.G*alpha + back.G*(1-alpha),
		B: solid.B*alpha + back.B*(1-alpha),
	}, true
}

// translucent reads a colour with an alpha: #rgba, #rrggbbaa, a legacy
// rgba()/hsla() of four arguments, or any colour function with "/ alpha".
func translucent(c string) (colorful.Color, float64, bool) {
	var solid, alpha string
	switch open := strings.IndexByte(c, '('); {
	case strings.HasPrefix(c, "#") && (len(c) == 5 || len(c) == 9):
		solid, alpha = c[:len(c)-(len(c)-1)/4], c[len(c)-(len(c)-1)/4:]
		v, err := strconv.ParseUint(alpha, 16, 8)
		if err != nil {
			return colorful.Color{}, 0, false
		}
		if len(alpha) == 1 {
			v *= 17
		}
		alpha = strconv.FormatFloat(float64(v)/255, 'f', -1, 64)
	case open > 0 && strings.HasSuffix(c, ")"):
		inner := c[open+1 : len(c)-1]
		if comps, a, found := strings.Cut(inner, "/"); found {
			solid, alpha = c[:open+1]+comps+")", strings.TrimSpace(a)
		} else if args := strings.Split(inner, ","); len(args) == 4 {
			solid, alpha = c[:open+1]+strings.Join(args[:3], ",")+")", strings.TrimSpace(args[3])
		}
	}
	a, ok := fraction(alpha, 1)
	col, okSolid := opaqueColour(solid)
	return col, a, ok && okSolid
}

// contrast is WCAG's contrast ratio of two colours' luminance.
func contrast(a, b colorful.Color) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// luminance is a colour's relative luminance (WCAG).
func luminance(c colorful.Color) float64 {
	r, g, b := c.LinearRgb()
	return 0.2126*r + 0.7152*g + 0.0722*b
}

// channel reads a colour's channel, a number of which max is the full
// value, a percentage or "none" (nothing), as a fraction of its full
// value, clamped as browsers clamp it: rgb(300 300 300) is white.
func channel(s string, max float64) (float64, bool) {
	v, ok := amount(s, max)
	return math.Max(0, math.Min(v/max, 1)), ok
}

// fraction reads a channel, a number of at most max or a percentage, as a
// fraction of its full value.
func fraction(s string, max float64) (float64, bool) {
	if pct, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(pct, 64)
		return v / 100, err == nil && v >= 0 && v <= 100
	}
	v, err := strconv.ParseFloat(s, 64)
	return v / max, err == nil && v >= 0 && v <= max
}

// hslToRGB converts hue (degrees), saturation and lightness (fractions)
// to red, green and blue fractions (CSS Color 4's algorithm).
func hslToRGB(h, s, l float64) [3]float64 {
	h = math.Mod(math.Mod(h, 360)+360, 360)
	f := func(n float64) float64 {
		k := math.Mod(n+h/30, 12)
		a := s * math.Min(l, 1-l)
		return l - a*math.Max(-1, math.Min(math.Min(k-3, 9-k), 1))
	}
	return [3]float64{f(0), f(8), f(4)}
}

// spacedValue writes a value's tokens lower-cased, each run of blanks
// between them as one space.
func spacedValue(tokens []css.Token) string {
	var b strings.Builder
	for _, t := range tokens {
		if t.TokenType == css.WhitespaceToken {
			b.WriteByte(' ')
		} else {
			b.Write(t.Data)
		}
	}
	return strings.ToLower(strings.TrimSpace(b.String()))
}
