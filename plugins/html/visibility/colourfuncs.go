package visibility

import (
	"math"
	"strconv"
	"strings"

	"github.com/lucasb-eyer/go-colorful"
)

// CSS Color 4 and 5 write a colour in many spaces besides sRGB: hwb(),
// lab(), lch(), oklab(), oklch(), color(display-p3 …), color-mix(). A
// reader sees white text whatever function wrote the white, and an
// outside check hid text in each spelling sift did not read. The spaces'
// conversions are go-colorful's (CSS Color 4's matrices and its Bradford
// adaptation from D50, which lab() and lch() are written in); what is
// read here is the syntax: components as numbers, percentages, angles or
// "none", and an alpha after a slash, which must be full for a colour to
// be one (a translucent colour lets what lies behind it through).

// spaceColour reads a colour function other than rgb() and hsl() as an
// opaque sRGB colour; ok is false for a translucent colour, a colour
// space sift does not convert, or anything it cannot read.
func spaceColour(name, args string) (colorful.Color, bool) {
	if name == "color-mix" {
		return colourMix(args)
	}
	parts, ok := opaqueParts(args)
	if !ok {
		return colorful.Color{}, false
	}
	if name == "color" {
		if len(parts) != 4 {
			return colorful.Color{}, false
		}
		return predefinedColour(parts[0], parts[1:])
	}
	if len(parts) != 3 {
		return colorful.Color{}, false
	}
	var v [3]float64
	for i, p := range parts {
		x, ok := component(name, i, p)
		if !ok {
			return colorful.Color{}, false
		}
		v[i] = x
	}
	return fromSpace(name, v)
}

// opaqueParts splits a colour function's arguments into its components,
// without the alpha after a slash, and reports false when that alpha is
// not full.
func opaqueParts(args string) ([]string, bool) {
	comps, alpha, found := strings.Cut(args, "/")
	if found {
		a := strings.TrimSpace(alpha)
		v, ok := fraction(a, 1)
		if !ok || v != 1 {
			return nil, false
		}
	}
	return strings.Fields(comps), true
}

// componentScales are, for each function, what 100% of each component
// stands for (CSS Color 4); 0 marks a hue.
var componentScales = map[string][3]float64{
	"hwb":   {0, 100, 100},
	"lab":   {100, 125, 125},
	"lch":   {100, 150, 0},
	"oklab": {1, 0.4, 0.4},
	"oklch": {1, 0.4, 0},
}

// component reads the i-th component of the function name: a number, a
// percentage of its scale, an angle for a hue, or "none" (zero).
func component(name string, i int, s string) (float64, bool) {
	scales, ok := componentScales[name]
	if !ok {
		return 0, false
	}
	if scales[i] == 0 {
		return hue(s)
	}
	return amount(s, scales[i])
}

// amount reads a component: a number, a percentage of full, or "none"
// (nothing).
func amount(s string, full float64) (float64, bool) {
	if s == "none" {
		return 0, true
	}
	if pct, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(pct, 64)
		return v / 100 * full, err == nil
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// hue reads an angle in degrees: a number, or deg, rad, grad or turn;
// "none" is 0.
func hue(s string) (float64, bool) {
	if s == "none" {
		return 0, true
	}
	for _, u := range angleUnits { // grad before rad, which ends it
		if v, ok := strings.CutSuffix(s, u.name); ok {
			x, err := strconv.ParseFloat(v, 64)
			return x * u.degrees, err == nil
		}
	}
	x, err := strconv.ParseFloat(s, 64)
	return x, err == nil
}

// angleUnits are CSS's angles, each with its size in degrees.
var angleUnits = []struct {
	name    string
	degrees float64
}{{"deg", 1}, {"grad", 0.9}, {"rad", 180 / math.Pi}, {"turn", 360}}

// fromSpace converts components read by component to sRGB.
func fromSpace(name string, v [3]float64) (colorful.Color, bool) {
	switch name {
	case "hwb":
		return hwbColour(v[0], v[1]/100, v[2]/100), true
	case "lab":
		return labColour(v[0], v[1], v[2]), true
	case "lch":
		a, b := polarToRect(v[1], v[2])
		return labColour(v[0], a, b), true
	case "oklab":
		return colorful.OkLab(v[0], v[1], v[2]), true
	case "oklch":
		return colorful.OkLch(v[0], math.Max(v[1], 0), v[2]), true
	}
	return colorful.Color{}, false
}

// labColour converts CIE Lab, as CSS writes it (D50, lightness 0 to 100),
// to sRGB.
func labColour(l, a, b float64) colorful.Color {
	l = math.Max(0, math.Min(l, 100))
	return colorful.XyzD50(colorful.LabToXyzWhiteRef(l/100, a/100, b/100, colorful.D50))
}

// hwbColour converts hue, whiteness and blackness (fractions) to sRGB.
func hwbColour(h, w, b float64) colorful.Color {
	w, b = math.Max(w, 0), math.Max(b, 0)
	if w+b >= 1 {
		g := w / (w + b)
		return colorful.Color{R: g, G: g, B: g}
	}
	rgb := hslToRGB(h, 1, 0.5)
	for i := range rgb {
		rgb[i] = rgb[i]*(1-w-b) + w
	}
	return colorful.Color{R: rgb[0], G: rgb[1], B: rgb[2]}
}

// polarToRect turns a chroma and a hue (degrees) into the two axes.
func polarToRect(c, h float64) (float64, float64) {
	c = math.Max(c, 0)
	rad := h * math.Pi / 180
	return c * math.Cos(rad), c * math.Sin(rad)
}

// predefinedColour reads color(space c1 c2 c3) for the spaces sift
// converts: sRGB, linear sRGB, Display P3 and XYZ (D65 or D50).
func predefinedColour(space string, parts []string) (colorful.Color, bool) {
	var v [3]float64
	for i, p := range parts {
		x, ok := amount(p, 1)
		if !ok {
			return colorful.Color{}, false
		}
		v[i] = x
	}
	switch space {
	case "srgb":
		return colorful.Color{R: v[0], G: v[1], B: v[2]}, true
	case "srgb-linear":
		return colorful.LinearRgb(v[0], v[1], v[2]), true
	case "display-p3":
		return colorful.DisplayP3(v[0], v[1], v[2]), true
	case "xyz", "xyz-d65":
		return colorful.Xyz(v[0], v[1], v[2]), true
	case "xyz-d50":
		return colorful.XyzD50(v[0], v[1], v[2]), true
	}
	return colorful.Color{}, false
}
