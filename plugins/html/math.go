package html

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A formula reaches the markdown as its LaTeX, $…$ inline and $$…$$ on
// its own, whatever wrote it: MathML (its alttext, its TeX annotation,
// else a linear rendering of its elements), KaTeX (its TeX annotation),
// MathJax (its math/tex script, the MathML of version 3's assistive
// copy), Wikipedia (the MathML or the fallback image's alt text). Each
// writes a visible rendering and a copy for screen readers, which is
// visually hidden, and go-trafilatura removes <math>: without this rule
// "the conditional probability, , that" was all an agent read.
//
// markMath runs before the hidden-element rules, since the copy it reads
// is hidden. It keeps each formula's outer element (a <span> for those
// that are no HTML element), so whatever hides the formula as a whole
// still hides it, and puts its LaTeX, marked (objects.go), in place of
// what it holds. What it reads is only a formula's own source, and only
// when that looks like a formula: at most maxFormulaWords words of three
// letters or more outside TeX commands, maxFormulaBytes at most, and,
// where the page also holds the formula's MathML, every such word found in
// it. Anything else stays as the page wrote it, for the hidden-element
// rules to judge: math markup is no way around them.

const (
	maxFormulaBytes = 4096
	maxFormulaWords = 8
	maxMathDepth    = 64
)

// formula is a formula found in the page: its TeX and whether it stands on
// its own (display) or runs in the text.
type formula struct {
	tex     string
	display bool
}

// markMath marks every formula under n (see above).
func markMath(n *html.Node, o *objects) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			switch f, kind := formulaOf(c); kind {
			case mathFound:
				markFormula(c, f, o)
			case mathRendering:
				// the rendering of a formula whose source follows it
			case mathTooLarge:
				// Left as the page wrote it, as any other, but
				// counted if it is seen (countFormulasTooLarge).
				c.Attr = append(c.Attr, html.Attribute{Key: formulaTooLarge})
				if c.DataAtom == atom.Script {
					// An empty <span>: go-trafilatura drops the text
					// after a <script> in a paragraph with it.
					c.Data, c.DataAtom, c.FirstChild, c.LastChild = "span", atom.Span, nil, nil
					c.Attr = []html.Attribute{{Key: formulaTooLarge}}
				}
				markMath(c, o)
			default:
				markMath(c, o)
			}
		}
		c = next
	}
}

type mathKind int

const (
	mathNone mathKind = iota
	mathFound
	mathRendering
	// mathTooLarge is a formula of few words but over maxFormulaBytes.
	mathTooLarge
)

// formulaOf reads the formula element n writes, if it is one.
func formulaOf(n *html.Node) (formula, mathKind) {
	class := " " + strings.Join(strings.Fields(attr(n, "class")), " ") + " "
	switch {
	case strings.Contains(class, " mwe-math-element "):
		return found(wikipediaFormula(n))
	case strings.Contains(class, " katex-display "):
		f, ok := katexFormula(n)
		f.display = true
		return found(f, ok)
	case strings.Contains(class, " katex "):
		return found(katexFormula(n))
	case n.Data == "mjx-container":
		return found(mathJax3Formula(n))
	case n.DataAtom == atom.Script:
		return found(mathScriptFormula(n))
	case isMathJax2Rendering(class):
		if nextMathScript(n) != nil {
			return formula{}, mathRendering
		}
		return found(mathJax2Formula(n))
	case isMathElement(n):
		return found(mathMLFormula(n))
	case n.DataAtom == atom.Img && isMathImage(n, class):
		return found(formula{tex: attr(n, "alt"), display: strings.Contains(class, "display")}, true)
	}
	return formula{}, mathNone
}

func found(f formula, ok bool) (formula, mathKind) {
	if f.tex = cleanTeX(f.tex); !ok || f.tex == "" || !looksLikeMath(f.tex) {
		if ok && len(f.tex) > maxFormulaBytes && len(texWords(f.tex)) <= maxFormulaWords {
			return formula{}, mathTooLarge
		}
		return formula{}, mathNone
	}
	return f, mathFound
}

// formulaTooLarge is the attribute markMath gives a formula left out for
// its size.
const formulaTooLarge = "data-sift-formula-too-large"

// countFormulasTooLarge counts, into o, the formulas left out for their
// size that are still in the page once what readers cannot see is gone
// (a formula inside another counted once), and takes their mark off. A
// formula's LaTeX over maxFormulaBytes is not read (a script's source is
// never shown, MathML is removed with <math>), and nothing said so: "The
// polynomial has many terms." read as the whole sentence.
func countFormulasTooLarge(root *html.Node, o *objects) {
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, inside bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			tagged := hasAttr(c, formulaTooLarge)
			if tagged {
				c.Attr = withoutAttr(c.Attr, formulaTooLarge)
				if !inside {
					o.formulasTooLarge++
				}
			}
			walk(c, inside || tagged)
		}
	}
	walk(root, false)
}

// markFormula puts f's marked LaTeX in place of what n holds. n stays,
// renamed <span> when it is no HTML element (go-trafilatura removes
// <math>, and scripts are never read), so what hides it still does.
func markFormula(n *html.Node, f formula, o *objects) {
	if n.DataAtom == atom.Script {
		removeMathJax2Renderings(n.PrevSibling)
		n.Attr = nil // a script's type and id say nothing of a span
	}
	if n.Namespace != "" || n.DataAtom == 0 || n.DataAtom == atom.Script || n.DataAtom == atom.Img {
		n.Namespace, n.Data, n.DataAtom = "", "span", atom.Span
		n.Attr = withoutAttr(n.Attr, "src")
	}
	// The space at the formula's edges (MathJax writes its copy on lines
	// of its own) stays outside it: "= 0$and they are" ran together.
	lead := n.FirstChild != nil && n.FirstChild.Type == html.TextNode && startsWithSpace(n.FirstChild.Data)
	trail := n.LastChild != nil && n.LastChild.Type == html.TextNode && endsWithSpace(n.LastChild.Data) && !punctuationNext(n)
	n.FirstChild, n.LastChild = nil, nil
	if n.Parent != nil {
		if lead {
			n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, n)
		}
		if trail {
			n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, n.NextSibling)
		}
	}
	if aloneInBlock(n) {
		f.display = true // MediaWiki writes a formula of its own in a <dd> of its own
	}
	if f.display && n.DataAtom == atom.Div {
		// go-trafilatura drops a <div> of one short text; a paragraph it keeps
		n.Data, n.DataAtom = "p", atom.P
	}
	md := "$" + f.tex + "$"
	if f.display {
		md = "$$" + f.tex + "$$"
	}
	t := &html.Node{Type: html.TextNode}
	n.AppendChild(t)
	o.mark(t, f.tex, md, html.EscapeString(md))
}

// punctuationNext reports whether the text after n starts with a
// punctuation mark, which no space goes before.
func punctuationNext(n *html.Node) bool {
	next := n.NextSibling
	return next != nil && next.Type == html.TextNode && next.Data != "" && strings.ContainsRune(",.;:!?)]", rune(next.Data[0]))
}

func startsWithSpace(s string) bool {
	return s != "" && strings.TrimLeft(s, " \t\n\r\f") != s
}

func endsWithSpace(s string) bool {
	return s != "" && strings.TrimRight(s, " \t\n\r\f") != s
}

// aloneInBlock reports whether n is all a paragraph, a <dd> or a <div>
// holds.
func aloneInBlock(n *html.Node) bool {
	p := n.Parent
	if p == nil || p.Type != html.ElementNode || p.DataAtom != atom.P && p.DataAtom != atom.Dd && p.DataAtom != atom.Div {
		return false
	}
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		if c != n && (c.Type == html.ElementNode || c.Type == html.TextNode && strings.TrimSpace(c.Data) != "") {
			return false
		}
	}
	return true
}

func withoutAttr(attrs []html.Attribute, key string) []html.Attribute {
	kept := attrs[:0]
	for _, a := range attrs {
		if a.Key != key {
			kept = append(kept, a)
		}
	}
	return kept
}

// wikipediaFormula reads MediaWiki's formula: its MathML (alttext or TeX
// annotation, held to the MathML's words), else its fallback image's alt
// text.
func wikipediaFormula(n *html.Node) (formula, bool) {
	display := strings.Contains(attr(n, "class"), "display")
	var m, img *html.Node
	walkElements(n, func(c *html.Node) bool {
		switch {
		case m == nil && isMathElement(c):
			m = c
			return false
		case img == nil && c.DataAtom == atom.Img:
			img = c
		case strings.Contains(attr(c, "class"), "mwe-math-mathml-display"):
			display = true
		}
		return true
	})
	if img != nil && strings.Contains(attr(img, "class"), "display") {
		display = true
	}
	if m != nil {
		f, ok := mathMLFormula(m)
		f.display = f.display || display
		return f, ok
	}
	if img != nil {
		return formula{tex: attr(img, "alt"), display: display}, true
	}
	return formula{}, false
}

// katexFormula reads KaTeX's TeX annotation, held to its MathML's words.
func katexFormula(n *html.Node) (formula, bool) {
	m := findElement(n, isMathElement)
	if m == nil {
		return formula{}, false
	}
	return mathMLFormula(m)
}

// mathJax3Formula reads the MathML of MathJax 3's assistive copy.
func mathJax3Formula(n *html.Node) (formula, bool) {
	m := findElement(n, isMathElement)
	if m == nil {
		return formula{}, false
	}
	display := attr(n, "display") == "true" || attr(n, "display") == "block"
	f, ok := mathMLFormula(m)
	f.display = f.display || display
	return f, ok
}

// mathScriptFormula reads MathJax's source scripts: math/tex (TeX) and
// math/mml (MathML), "; mode=display" for a formula of its own.
func mathScriptFormula(n *html.Node) (formula, bool) {
	typ := strings.ToLower(strings.Join(strings.Fields(attr(n, "type")), ""))
	display := strings.Contains(typ, "mode=display")
	source := textOf(n)
	switch {
	case strings.HasPrefix(typ, "math/tex"):
		return formula{tex: source, display: display}, true
	case strings.HasPrefix(typ, "math/mml"):
		f, ok := parsedMathML(source)
		f.display = f.display || display
		return f, ok
	}
	return formula{}, false
}

// mathJax2Formula reads a MathJax 2 rendering whose source script is gone
// (a page saved from a browser): its data-mathml attribute, else the
// MathML of its assistive copy.
func mathJax2Formula(n *html.Node) (formula, bool) {
	display := strings.Contains(attr(n, "class"), "Display")
	if src := attr(n, "data-mathml"); src != "" {
		f, ok := parsedMathML(src)
		f.display = f.display || display
		return f, ok
	}
	m := findElement(n, isMathElement)
	if m == nil {
		return formula{}, false
	}
	f, ok := mathMLFormula(m)
	f.display = f.display || display
	return f, ok
}

// parsedMathML reads a formula written as MathML source.
func parsedMathML(src string) (formula, bool) {
	if len(src) > 16*maxFormulaBytes {
		return formula{}, false
	}
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(src), body)
	if err != nil {
		return formula{}, false
	}
	for _, c := range nodes {
		m := c
		if !isMathElement(c) {
			m = findElement(c, isMathElement)
		}
		if m != nil {
			return mathMLFormula(m)
		}
	}
	return formula{}, false
}

// mathMLFormula reads a <math> element: its alttext or TeX annotation when
// every word of it is in the MathML's own text, else the MathML's linear
// rendering.
func mathMLFormula(m *html.Node) (formula, bool) {
	display := strings.EqualFold(attr(m, "display"), "block")
	linear := linearMath(m)
	tokens := mathTokens(m)
	for _, tex := range []string{attr(m, "alttext"), texAnnotation(m)} {
		if tex = cleanTeX(tex); tex != "" && texWordsIn(tex, tokens) {
			return formula{tex: tex, display: display}, true
		}
	}
	return formula{tex: linear, display: display}, linear != ""
}

// texAnnotation is the TeX annotation of a MathML formula, if it has one.
func texAnnotation(m *html.Node) string {
	a := findElement(m, func(c *html.Node) bool {
		return c.Namespace == "math" && c.Data == "annotation" && strings.Contains(strings.ToLower(attr(c, "encoding")), "tex")
	})
	if a == nil {
		return ""
	}
	return textOf(a)
}

// isMathJax2Rendering reports whether a class names one of the elements
// MathJax 2 renders a formula as, beside its source script.
func isMathJax2Rendering(class string) bool {
	for _, c := range strings.Fields(class) {
		if strings.HasPrefix(c, "MathJax") || strings.HasPrefix(c, "MJXc-") || c == "MJX_Assistive_MathML" {
			return true
		}
	}
	return false
}

// nextMathScript is the source script of the formula whose rendering n
// is, if one follows it.
func nextMathScript(n *html.Node) *html.Node {
	for c := n.NextSibling; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
		case c.Type == html.ElementNode && c.DataAtom == atom.Script:
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(attr(c, "type"))), "math/") {
				return c
			}
			return nil
		case c.Type == html.ElementNode && isMathJax2Rendering(attr(c, "class")):
		default:
			return nil
		}
	}
	return nil
}

// removeMathJax2Renderings removes the renderings just before a formula's
// source script, whose formula it now holds.
func removeMathJax2Renderings(prev *html.Node) {
	for c := prev; c != nil; {
		before := c.PrevSibling
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
		case c.Type == html.ElementNode && isMathJax2Rendering(attr(c, "class")):
			c.Parent.RemoveChild(c)
		default:
			return
		}
		c = before
	}
}

// mathImageClasses are the classes of images whose alt text is a
// formula's TeX: MediaWiki's fallback images and WordPress's LaTeX.
var mathImageClasses = map[string]bool{
	"mwe-math-fallback-image-inline": true, "mwe-math-fallback-image-display": true,
	"latex": true, "tex": true, "wp-latex": true,
}

func isMathImage(n *html.Node, class string) bool {
	if attr(n, "alt") == "" {
		return false
	}
	if hasClassIn(class, mathImageClasses) {
		return true
	}
	src := strings.ToLower(attr(n, "src"))
	return strings.Contains(src, "latex.codecogs.com/") || strings.Contains(src, "/latex.php?")
}

// cleanTeX trims a formula's TeX to one line and drops MediaWiki's
// {\displaystyle …} around it.
func cleanTeX(tex string) string {
	tex = strings.Join(strings.Fields(stripObjectMarks(tex)), " ")
	for _, style := range []string{`{\displaystyle `, `{\textstyle `} {
		if strings.HasPrefix(tex, style) && strings.HasSuffix(tex, "}") && balanced(tex[1:len(tex)-1]) {
			tex = strings.TrimSpace(tex[len(style) : len(tex)-1])
		}
	}
	return tex
}

// balanced reports whether s's braces (unescaped) pair up.
func balanced(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

var (
	// a command, and the environment \begin and \end name, such as bmatrix
	texCommand = regexp.MustCompile(`\\(begin|end)\s*\{[^}]*\}|\\[A-Za-z]+`)
	texWord    = regexp.MustCompile(`\pL{3,}`)
)

// texWords are the words of three letters or more of a formula's TeX,
// outside its commands.
func texWords(tex string) []string {
	return texWord.FindAllString(texCommand.ReplaceAllString(tex, " "), -1)
}

// looksLikeMath reports whether tex is short and holds few words: prose
// is no formula, whatever markup holds it.
func looksLikeMath(tex string) bool {
	return len(tex) <= maxFormulaBytes && len(texWords(tex)) <= maxFormulaWords
}

// texWordsIn reports whether every word of tex is in tokens, the MathML's
// text run together.
func texWordsIn(tex, tokens string) bool {
	for _, w := range texWords(tex) {
		if !strings.Contains(tokens, w) {
			return false
		}
	}
	return true
}

// mathTokens is the text of a MathML formula's elements outside its
// annotations, run together.
func mathTokens(m *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node, int)
	walk = func(n *html.Node, depth int) {
		if depth > maxMathDepth || b.Len() > 4*maxFormulaBytes {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(strings.Join(strings.Fields(c.Data), ""))
			case c.Type == html.ElementNode && c.Data != "annotation" && c.Data != "annotation-xml":
				walk(c, depth+1)
			}
		}
	}
	walk(m, 0)
	return b.String()
}

// walkElements calls visit on each element under n, in page order, and
// goes into an element only when visit returns true.
func walkElements(n *html.Node, visit func(*html.Node) bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && visit(c) {
			walkElements(c, visit)
		}
	}
}

// findElement is the first element under n that match reports.
func findElement(n *html.Node, match func(*html.Node) bool) *html.Node {
	var hit *html.Node
	walkElements(n, func(c *html.Node) bool {
		if hit != nil {
			return false
		}
		if match(c) {
			hit = c
			return false
		}
		return true
	})
	return hit
}

// isMathElement reports whether n is a MathML <math> element.
func isMathElement(n *html.Node) bool {
	return n.Type == html.ElementNode && n.Namespace == "math" && n.Data == "math"
}
