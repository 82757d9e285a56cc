package visibility

import (
	"math"
	"strconv"
	"strings"

	"github.com/lucasb-eyer/go-colorful"
)

// colourMix reads color-mix(in <space>, <colour> [<p>%], <colour> [<p>%])
// (CSS Color 5) as an opaque sRGB colour: the two colours, each one sift
// reads as opaque, mixed in the space named with the weights the
// percentages give (both missing, half each; one missing, what the other
// leaves; two summing under 100%, a translucent mix, which ok reports
// false, as for polar spaces mixed along any but the shorter hue).
func colourMix(args string) (colorful.Color, bool) {
	items := splitTopLevel(args, ',')
	if len(items) != 3 {
		return colorful.Color{}, false
	}
	space, ok := strings.CutPrefix(strings.TrimSpace(items[0]), "in ")
	space = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(space), "shorter hue"))
	if !ok || !mixSpaces[space] {
		return colorful.Color{}, false
	}
	c1, p1, ok1 := mixItem(items[1])
	c2, p2, ok2 := mixItem(items[2])
	if !ok1 || !ok2 {
		return colorful.Color{}, false
	}
	switch {
	case p1 < 0 && p2 < 0:
		p1, p2 = 50, 50
	case p1 < 0:
		p1 = 100 - p2
	case p2 < 0:
		p2 = 100 - p1
	}
	if p1 < 0 || p2 < 0 || p1+p2 < 100 {
		return colorful.Color{}, false // translucent, or no mix
	}
	return mixIn(space, c1, c2, p2/(p1+p2)), true
}

// mixSpaces are the spaces colourMix mixes in.
var mixSpaces = map[string]bool{
	"srgb": true, "srgb-linear": true, "lab": true, "oklab": true, "xyz": true, "xyz-d65": true, "xyz-d50": true,
	"hsl": true, "hwb": true, "lch": true, "oklch": true,
}

// mixItem reads one colour of a mix and its percentage, -1 when none is
// written.
func mixItem(item string) (colorful.Color, float64, bool) {
	fields := splitTopLevel(strings.TrimSpace(item), ' ')
	pct := -1.0
	var colour []string
	for _, f := range fields {
		if v, ok := strings.CutSuffix(f, "%"); ok && pct < 0 && !strings.Contains(f, "(") {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || x < 0 || x > 100 {
				return colorful.Color{}, 0, false
			}
			pct = x
			continue
		}
		if f != "" {
			colour = append(colour, f)
		}
	}
	c, ok := opaqueColour(strings.Join(colour, " "))
	return c, pct, ok
}

// mixIn mixes a and b in space, t of b.
func mixIn(space string, a, b colorful.Color, t float64) colorful.Color {
	lerp := func(x, y float64) float64 { return x + (y-x)*t }
	switch space {
	case "srgb-linear":
		return a.BlendLinearRgb(b, t)
	case "lab":
		l1, a1, b1 := labD50(a)
		l2, a2, b2 := labD50(b)
		return colorful.XyzD50(colorful.LabToXyzWhiteRef(lerp(l1, l2), lerp(a1, a2), lerp(b1, b2), colorful.D50))
	case "oklab":
		return a.BlendOkLab(b, t)
	case "xyz", "xyz-d65":
		x1, y1, z1 := a.Xyz()
		x2, y2, z2 := b.Xyz()
		return colorful.Xyz(lerp(x1, x2), lerp(y1, y2), lerp(z1, z2))
	case "xyz-d50":
		x1, y1, z1 := a.XyzD50()
		x2, y2, z2 := b.XyzD50()
		return colorful.XyzD50(lerp(x1, x2), lerp(y1, y2), lerp(z1, z2))
	case "hsl", "hwb":
		// Mixed as hue, saturation and lightness; hwb's whiteness and
		// blackness are the same colours on another axis.
		h1, s1, l1 := a.Hsl()
		h2, s2, l2 := b.Hsl()
		h := mixHue(h1, h2, s1, s2, t)
		return colorful.Hsl(h, lerp(s1, s2), lerp(l1, l2))
	case "lch":
		l1, a1, b1 := labD50(a)
		l2, a2, b2 := labD50(b)
		c1, h1 := math.Hypot(a1, b1), math.Atan2(b1, a1)*180/math.Pi
		c2, h2 := math.Hypot(a2, b2), math.Atan2(b2, a2)*180/math.Pi
		x, y := polarToRect(lerp(c1, c2), mixHue(h1, h2, c1, c2, t))
		return colorful.XyzD50(colorful.LabToXyzWhiteRef(lerp(l1, l2), x, y, colorful.D50))
	case "oklch":
		l1, c1, h1 := a.OkLch()
		l2, c2, h2 := b.OkLch()
		return colorful.OkLch(lerp(l1, l2), lerp(c1, c2), mixHue(h1, h2, c1, c2, t))
	}
	return a.BlendRgb(b, t) // srgb
}

// labD50 is c in CIE Lab as CSS reads it: adapted to D50 (Bradford)
// before it is read against D50's white.
func labD50(c colorful.Color) (l, a, b float64) {
	x, y, z := c.XyzD50()
	return colorful.XyzToLabWhiteRef(x, y, z, colorful.D50)
}

// mixHue interpolates two hues (degrees) along the shorter arc; a colour
// without chroma has no hue, and takes the other's, as CSS Color 4 says
// of powerless components.
func mixHue(h1, h2, c1, c2, t float64) float64 {
	const grey = 1e-4
	switch {
	case c1 < grey && c2 < grey:
		return 0
	case c1 < grey:
		h1 = h2
	case c2 < grey:
		h2 = h1
	}
	d := math.Mod(h2-h1+540, 360) - 180
	return math.Mod(h1+d*t+360, 360)
}

// splitTopLevel splits s at sep outside parentheses.
func splitTopLevel(s string, sep byte) []string {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case sep:
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}
