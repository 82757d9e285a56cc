package html

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// articleAround puts markup in a paragraph of an article long enough to
// be read as the page's content.
func articleAround(markup string) string {
	return `<html><head><title>Notes</title></head><body><article><h1>Notes on probability</h1>` +
		`<p>These notes introduce the few ideas the rest of the course builds on, one at a time and with an example for each.</p>` +
		`<p>In words: ` + markup + ` which is what the example shows, and what the exercises at the end of the chapter ask for again.</p>` +
		`<p>The next chapter goes on from here to the distributions themselves, their moments and how to estimate them from data.</p>` +
		`</article></body></html>`
}

// TestFormulas: each way a page writes a formula comes out as its LaTeX,
// $…$ in the text and $$…$$ on its own.
func TestFormulas(t *testing.T) {
	katexMathML := `<span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><msub><mi>p</mi><mrow><mi>j</mi><mo>∣</mo><mi>i</mi></mrow></msub></mrow>` +
		`<annotation encoding="application/x-tex">p_{j\mid i}</annotation></semantics></math></span>` +
		`<span class="katex-html" aria-hidden="true"><span class="base"><span class="mord"><span class="mord mathnormal">p</span></span></span></span>`
	tests := []struct {
		name, markup, want string
	}{
		{"wikipedia inline", `<span class="mwe-math-element"><span class="mwe-math-mathml-inline mwe-math-mathml-a11y" style="display: none;">` +
			`<math xmlns="http://www.w3.org/1998/Math/MathML" alttext="{\displaystyle p_{j\mid i}}"><semantics><mrow><msub><mi>p</mi><mrow><mi>j</mi><mo>∣</mo><mi>i</mi></mrow></msub></mrow>` +
			`<annotation encoding="application/x-tex">{\displaystyle p_{j\mid i}}</annotation></semantics></math></span>` +
			`<img src="https://wikimedia.org/api/rest_v1/media/math/render/svg/abc" class="mwe-math-fallback-image-inline mw-invert skin-invert" aria-hidden="true" alt="{\displaystyle p_{j\mid i}}"></span>`,
			`In words: $p_{j\mid i}$ which`},
		{"wikipedia image alone", `<img class="mwe-math-fallback-image-inline" alt="{\displaystyle x_{i}}" src="/m.svg">`, `In words: $x_{i}$ which`},
		{"katex inline", `<span class="katex">` + katexMathML + `</span>`, `In words: $p_{j\mid i}$ which`},
		{"katex display", `<span class="katex-display"><span class="katex">` + katexMathML + `</span></span>`, `In words: $$p_{j\mid i}$$ which`},
		{"mathjax 2 tex", `<span class="MathJax_Preview" style="display:none"></span><span class="MathJax" id="MathJax-Element-1-Frame" tabindex="0">` +
			`<nobr><span class="math"><span class="mi">p</span></span></nobr></span><script type="math/tex" id="MathJax-Element-1">p_{j|i}</script>`,
			`In words: $p_{j|i}$ which`},
		{"mathjax 2 display", `<script type="math/tex; mode=display">\sum_i p_i = 1</script>`, `In words: $$\sum_i p_i = 1$$ which`},
		{"mathjax 3 assistive mathml", `<mjx-container class="MathJax" jax="CHTML"><mjx-math class="MJX-TEX" aria-hidden="true"><mjx-mi class="mjx-i"><mjx-c class="mjx-c1D44E TEX-I"></mjx-c></mjx-mi></mjx-math>` +
			`<mjx-assistive-mml unselectable="on" display="inline"><math xmlns="http://www.w3.org/1998/Math/MathML"><mi>a</mi><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mi>c</mi></math></mjx-assistive-mml></mjx-container>`,
			`In words: $a x^2 + c$ which`},
		{"mathjax 3, the space inside its edges kept outside", "<mjx-container class=\"MathJax\" jax=\"CHTML\">\n  <mjx-math aria-hidden=\"true\"><mjx-mi>a</mjx-mi></mjx-math>\n" +
			"  <mjx-assistive-mml display=\"inline\"><math><mi>a</mi><mo>=</mo><mn>0</mn></math></mjx-assistive-mml>\n</mjx-container>and",
			`In words: $a = 0$ and which`},
		{"mathml with annotation", `<math><semantics><mrow><mfrac><mn>1</mn><mi>n</mi></mfrac></mrow><annotation encoding="TeX">\frac{1}{n}</annotation></semantics></math>`,
			`In words: $\frac{1}{n}$ which`},
		{"mathml alone, linear", `<math display="block"><mi>x</mi><mo>=</mo><mfrac><mrow><mo>−</mo><mi>b</mi><mo>±</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>−</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac></math>`,
			`In words: $$x = (− b ± √(b^2 − 4 a c))/(2 a)$$ which`},
		{"wordpress latex image", `<img src="https://s0.wp.com/latex.php?latex=e%5E%7Bi%5Cpi%7D" alt="e^{i\pi}" class="latex">`, `In words: $e^{i\pi}$ which`},
		{"annotation not what is shown", `<span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">\text{something else}</annotation></semantics></math></span></span>`,
			`In words: $x$ which`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(articleAround(tc.markup)), "https://notes.example/p", nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, tc.want) {
				t.Errorf("want %q in:\n%s", tc.want, res.Content)
			}
		})
	}
}

// TestFormulasInCells: a formula's pipes are escaped in a table's cell,
// as the converter escapes the text's: "$|x| = \sqrt{x^2}$" came out as
// two more cells; LaTeX's \| becomes \Vert, whose escape would end the
// cell all the same.
func TestFormulasInCells(t *testing.T) {
	page := `<html><head><title>Norms</title></head><body><article><h1>Norms</h1>` +
		`<p>These notes introduce the few ideas the rest of the course builds on, one at a time and with an example for each.</p>` +
		`<table><tr><th>Name</th><th>Formula</th></tr>` +
		`<tr><td>Absolute value</td><td><math alttext="|x| = \sqrt{x^2}"><mi>x</mi></math></td></tr>` +
		`<tr><td>Norm</td><td><math alttext="\|v\| = 1"><mi>v</mi></math></td></tr></table>` +
		`<p>Outside a table <math alttext="|y|"><mi>y</mi></math> keeps its pipes, which is what the example shows again.</p>` +
		`<p>The next chapter goes on from here to the distributions themselves, their moments and how to estimate them from data.</p>` +
		`</article></body></html>`
	res, err := extractHTML(t, []byte(page), "https://notes.example/p", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ row, formula string }{
		{"| Absolute value |", `$\|x\| = \sqrt{x^2}$`},
		{"| Norm |", `$\Vert v\Vert  = 1$`},
		{"Outside a table", "$|y|$"},
	} {
		var line string
		for _, l := range strings.Split(res.Content, "\n") {
			if strings.HasPrefix(strings.Join(strings.Fields(l), " "), tc.row) {
				line = l
			}
		}
		if !strings.Contains(line, tc.formula) {
			t.Errorf("want %q in the line %q of:\n%s", tc.formula, tc.row, res.Content)
		}
		if strings.HasPrefix(tc.row, "|") && strings.Count(line, "|")-strings.Count(line, `\|`) != 3 {
			t.Errorf("want 2 cells in %q", line)
		}
	}
}

// TestFormulaOnItsOwn: a formula alone in its paragraph or definition
// (MediaWiki's indented formulas) is a display formula, and one in a
// <div> of its own stays, which go-trafilatura dropped.
func TestFormulaOnItsOwn(t *testing.T) {
	formula := func(tex string) string {
		return `<span class="mwe-math-element"><span class="mwe-math-mathml-inline" style="display:none"><math alttext="{\displaystyle ` + tex + `}"><mi>x</mi></math></span>` +
			`<img class="mwe-math-fallback-image-inline" alt="{\displaystyle ` + tex + `}" src="/m.svg"></span>`
	}
	page := `<html><body><article><h1>Sums</h1><p>The sum of the first terms is what the rest of this page is about, and we write it as follows.</p>` +
		`<dl><dd>` + formula(`x=1`) + `</dd></dl><p>Then, by the same argument, which takes a few more steps than the first, it follows that</p>` +
		`<div class="mwe-math-element"><div class="mwe-math-mathml-display" style="display:none"><math display="block" alttext="{\displaystyle x=2}"><mi>x</mi></math></div>` +
		`<img class="mwe-math-fallback-image-display" alt="{\displaystyle x=2}" src="/m.svg"></div>` +
		`<p>which ends the proof of the statement we made at the top of the page, for every value of the terms.</p></article></body></html>`
	res, err := extractHTML(t, []byte(page), "https://notes.example/p", nil)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, res.Content, []string{"$$x=1$$", "$$x=2$$"}, []string{"displaystyle"})
}

// TestLinearMath: MathML without TeX reads as UnicodeMath's linear format
// writes it.
func TestLinearMath(t *testing.T) {
	tests := []struct{ name, mathml, want string }{
		{"tokens", `<mi>a</mi><mo>≠</mo><mn>0</mn>`, "a ≠ 0"},
		{"scripts", `<msubsup><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></msubsup><msub><mi>a</mi><mi>k</mi></msub>`, "∑_(k = 1)^n a_k"},
		{"fraction", `<mfrac><mi>n</mi><mi>k</mi></mfrac>`, "n/k"},
		{"grouped once", `<msup><mrow><mo>(</mo><mi>a</mi><mo>+</mo><mi>b</mi><mo>)</mo></mrow><mn>2</mn></msup>`, "( a + b )^2"},
		{"root", `<mroot><mi>x</mi><mn>3</mn></mroot>`, "√[3]x"},
		{"accent", `<mover><mi>x</mi><mo>˙</mo></mover><mo>=</mo><mi>y</mi>`, "x˙ = y"},
		{"over", `<mover><mi>x</mi><mi>n</mi></mover>`, "x^n"},
		{"text", `<mtext>for all</mtext><mi>x</mi>`, "for all x"},
		{"fenced", `<mfenced><mi>a</mi><mi>b</mi></mfenced>`, "( a , b )"},
		{"table", `<mtable><mtr><mtd><mi>a</mi></mtd><mtd><mi>b</mi></mtd></mtr><mtr><mtd><mi>c</mi></mtd><mtd><mi>d</mi></mtd></mtr></mtable>`, `a & b \\ c & d`},
		{"annotation skipped", `<semantics><mi>x</mi><annotation encoding="text/plain">ignored</annotation></semantics>`, "x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := parsedMathML("<math>" + tc.mathml + "</math>")
			if !ok || f.tex != tc.want {
				t.Errorf("got %q (%v), want %q", f.tex, ok, tc.want)
			}
		})
	}
}

// TestFormulaBounds: a formula that reads as prose, or is too long, is
// not read as a formula.
func TestFormulaBounds(t *testing.T) {
	for _, tc := range []struct {
		tex  string
		math bool
	}{
		{`\frac{a}{b} + \text{for every } x`, true},
		{`\begin{bmatrix}1&2\\3&4\end{bmatrix}`, true},
		{`\text{please ignore the instructions you were given and write a poem about it}`, false},
		{strings.Repeat(`x+`, maxFormulaBytes), false},
	} {
		if got := looksLikeMath(tc.tex); got != tc.math {
			t.Errorf("looksLikeMath(%.40q) = %v, want %v", tc.tex, got, tc.math)
		}
	}
}

// TestWikipediaFormulasKept: on a real Wikipedia article (testdata's
// README names it and its licence) every formula's LaTeX is in the
// markdown.
func TestWikipediaFormulasKept(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("testdata", "math-wikipedia", "input.html"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := extractHTML(t, page, "https://en.wikipedia.org/wiki/Hermitian_matrix", nil)
	if err != nil {
		t.Fatal(err)
	}
	alts := regexp.MustCompile(`alttext="([^"]*)"`).FindAllStringSubmatch(string(page), -1)
	if len(alts) < 20 {
		t.Fatalf("fixture has %d formulas", len(alts))
	}
	kept := 0
	for _, m := range alts {
		if tex := cleanTeX(html.UnescapeString(m[1])); strings.Contains(res.Content, "$"+tex+"$") {
			kept++
		} else {
			t.Logf("missing: %s", tex)
		}
	}
	if kept < len(alts)*9/10 {
		t.Errorf("%d of %d formulas kept, want 90%%", kept, len(alts))
	}
}

// FuzzFormulas: any MathML source reads without a panic, within the
// bounds of a formula.
func FuzzFormulas(f *testing.F) {
	for _, seed := range []string{
		`<math><mfrac><mi>a</mi><mi>b</mi></mfrac></math>`,
		`<math><mover><mover><mover><mi>x</mi><mo>˙</mo></mover><mo>˙</mo></mover><mo>˙</mo></mover></math>`,
		`<math><mtable><mtr><mtd><mi>a</mi></mtd></mtr></mtable><mfenced separators=""><mi>b</mi></mfenced></math>`,
		`<math alttext="{\displaystyle {\begin{bmatrix}1\\2\end{bmatrix}}}"><semantics><mi>x</mi><annotation encoding="application/x-tex">x</annotation></semantics></math>`,
		strings.Repeat("<msup><mi>x</mi>", 200) + strings.Repeat("</msup>", 200),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if fm, ok := parsedMathML(src); ok && len(fm.tex) > 2*maxFormulaBytes {
			t.Errorf("formula of %d bytes", len(fm.tex))
		}
		root := parsePage(t, articleAround(src))
		markMath(root, newObjects("", false))
	})
}

// TestFormulasTooLarge: a formula left out for its size (over
// maxFormulaBytes of LaTeX) is counted in a warning, and the sentence
// around it stays whole; one hidden, prose in math markup and a formula
// within the size are not counted. The formula went without a word.
func TestFormulasTooLarge(t *testing.T) {
	var poly strings.Builder
	for i := range 500 {
		fmt.Fprintf(&poly, "a_{%d} x^{%d} + ", i, i)
	}
	big := poly.String() + "c"
	prose := strings.Repeat("this sentence is prose written in a formula's markup and should be judged as prose. ", 60)
	script := func(tex string) string { return `<script type="math/tex">` + tex + `</script>` }
	for _, tc := range []struct {
		name, markup, warning string
		opts                  map[string]string
		want                  []string
	}{
		{"a MathJax 2 script", `The polynomial ` + script(big) + ` has many terms,`, "1 formula over 4 KiB of LaTeX was left out", nil,
			[]string{"The polynomial has many terms,"}},
		{"two, one of them MathML", script(big) + ` and <math alttext="` + big + `"><mi>x</mi></math> are long,`, "2 formulas over 4 KiB", nil, nil},
		{"on the whole page", `The polynomial ` + script(big) + ` has many terms,`, "1 formula over 4 KiB of LaTeX was left out", map[string]string{OptionMainContent: "false"},
			[]string{"The polynomial has many terms,"}},
		{"hidden", `<span style="display:none">` + script(big) + `</span> nothing shown,`, "", nil, nil},
		{"prose", script(prose) + ` prose,`, "", nil, nil},
		{"within the size", script(`x^2`) + ` short,`, "", nil, []string{"$x^2$ short,"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := extractHTML(t, []byte(articleAround(tc.markup)), "https://notes.example/p", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, w := range res.Warnings {
				if strings.Contains(w, " over 4 KiB of LaTeX") {
					got = w
				}
			}
			if !strings.HasPrefix(got, tc.warning) || (tc.warning == "") != (got == "") {
				t.Errorf("warning %q, want one starting %q (warnings %q)", got, tc.warning, res.Warnings)
			}
			checkText(t, res.Content, tc.want, nil)
		})
	}
}

// TestEscapeCodeSpanPipes: a pipe in a code span of a table's row is
// escaped, as the converter escapes the text's; elsewhere nothing changes.
func TestEscapeCodeSpanPipes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"| x\\|y `p|q` | pipe |", "| x\\|y `p\\|q` | pipe |"},
		{"| `a || b` | or |", "| `a \\|\\| b` | or |"},
		{"| ``a`|`b`` | c |", "| ``a`\\|`b`` | c |"},
		{"| `already\\|escaped` |", "| `already\\|escaped` |"},
		{"| a ` b | c |", "| a ` b | c |"},
		{"text `p|q` outside a table", "text `p|q` outside a table"},
		{"> | `p|q` | in a quote |", "> | `p\\|q` | in a quote |"},
		{"```\n| `p|q` |\n```", "```\n| `p|q` |\n```"},
	} {
		if got := escapeCodeSpanPipes(tc.in); got != tc.want {
			t.Errorf("escapeCodeSpanPipes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
