package visibility

import (
	"slices"
	"strings"
	"testing"
)

func TestClippedClasses(t *testing.T) {
	const recipe = `{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}`
	tests := []struct {
		name, css string
		want      []string
	}{
		{"the screen-reader recipe", `.x9f2` + recipe, []string{"x9f2"}},
		{"clip-path and !important", `.Clipped{clip-path:inset(50%) !important;height:1px !important;position:absolute}`, []string{"clipped"}},
		{"a clip to one pixel", `.a{clip:rect(1px,1px,1px,1px);width:1px;position:absolute}`, []string{"a"}},
		{"a class named for clipping", `.a{color:red}.clipped` + recipe, []string{"clipped"}},
		{"each lone class of a list", `.a, .b:focus, .c` + recipe, []string{"a", "c"}},
		{"not inside an at-rule", `@media (max-width:600px){.m` + recipe + `}`, nil},
		{"nor after another rule inside one", `@supports (display:grid){.a{color:red}.m` + recipe + `}`, nil},
		{"after an at-rule closes", `@media print{.p{color:red}} .after` + recipe, []string{"after"}},
		{"not a class in context", `.nav .x` + recipe + `div.y` + recipe, nil},
		{"a clip without a pixel size is a crop", `.crop{position:absolute;clip:rect(0 0 0 0)}`, nil},
		{"display:none folds panels a reader opens", `.tab{display:none;width:1px}`, nil},
		{"off-screen offsets also park menus", `.menu{position:absolute;left:-9999px;width:1px}`, nil},
		{"an unclosed rule ends with the sheet, as browsers end it", `.open{clip:rect(0 0 0 0);width:1px`, []string{"open"}},
		{"garbage", `}}{{;;@@ .a{{clip:`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := clippedClasses(tc.css, nil)
			var names []string
			for c := range got {
				names = append(names, c)
			}
			slices.Sort(names)
			if !slices.Equal(names, tc.want) {
				t.Errorf("clippedClasses(%q) = %v, want %v", tc.css, names, tc.want)
			}
		})
	}
}

// largeStylesheet is 50,000 rules that clip nothing, then one that does.
func largeStylesheet() string {
	var b strings.Builder
	for i := 0; i < 50000; i++ {
		b.WriteString(`.c{color:red;clip:auto} @media (min-width:1px){.d{width:1px}} `)
	}
	b.WriteString(`.last{clip:rect(0 0 0 0);height:1px}`)
	return b.String()
}

// A stylesheet of many rules is read whole: the last rule still counts.
func TestClippedClassesLargeStylesheet(t *testing.T) {
	got := clippedClasses(largeStylesheet(), nil)
	if !got["last"] || len(got) != 1 {
		t.Errorf("got %v, want only last", got)
	}
}

// BenchmarkClippedClassesLargeStylesheet: reading a stylesheet is one pass,
// so its time grows with the sheet's length, not its square.
func BenchmarkClippedClassesLargeStylesheet(b *testing.B) {
	css := largeStylesheet()
	for b.Loop() {
		clippedClasses(css, nil)
	}
}

// FuzzClippedClasses feeds stylesheets from pages: reading them ends, and
// whatever it finds is a class name.
func FuzzClippedClasses(f *testing.F) {
	f.Add(`.x9f2{position:absolute;width:1px;height:1px;clip:rect(0 0 0 0)}`)
	f.Add(`@media print{.p{clip:rect(0,0,0,0);width:1px}} .a,.b{clip-path:inset(50%);height:0}`)
	f.Add(`/* { */ .c{content:"}";clip:rect(1px 1px 1px 1px);width:1px`)
	f.Fuzz(func(t *testing.T, sheet string) {
		for c := range clippedClasses(sheet, nil) {
			if c == "" || strings.ContainsAny(c, " {};,") {
				t.Errorf("class %q from %q", c, sheet)
			}
		}
	})
}
