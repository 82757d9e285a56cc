package html

import (
	"strings"

	"golang.org/x/net/html"
)

// linearMath renders a MathML formula that carries no TeX of its own in a
// linear form, as UnicodeMath's linear format writes one: tokens as they
// read, apart by spaces, scripts after ^ and _, fractions with a slash,
// roots with √, groups of more than one token in parentheses
// ("x = (− b ± √(b^2 − 4 a c))/(2 a)"); a table's cells apart by & and
// its rows by \\. It is what a reader sees, in the order they see it,
// which TeX commands would break up. It goes maxMathDepth elements deep
// at most and stops writing past maxFormulaBytes, so a hostile formula
// costs little.
func linearMath(m *html.Node) string {
	budget := 16 * maxFormulaBytes
	w := mathWriter{budget: &budget}
	w.children(m, 0)
	return cleanTeX(w.b.String())
}

// mathWriter writes a formula's TeX, within its bounds: its own length,
// and a budget it shares with the writers of the groups inside it.
type mathWriter struct {
	b      strings.Builder
	budget *int
}

func (w *mathWriter) full() bool { return w.b.Len() > maxFormulaBytes || *w.budget <= 0 }

func (w *mathWriter) write(parts ...string) {
	for _, p := range parts {
		if !w.full() {
			w.b.WriteString(p)
			*w.budget -= len(p)
		}
	}
}

func (w *mathWriter) inner() *mathWriter { return &mathWriter{budget: w.budget} }

// children writes n's children, apart by spaces.
func (w *mathWriter) children(n *html.Node, depth int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			if t := strings.TrimSpace(c.Data); t != "" {
				w.write(" ", strings.Join(strings.Fields(t), " "), " ")
			}
		case html.ElementNode:
			w.element(c, depth+1)
		}
	}
}

// group is what n renders as, as one TeX group's content.
func (w *mathWriter) group(n *html.Node, depth int) string {
	if n == nil {
		return ""
	}
	inner := w.inner()
	inner.element(n, depth+1)
	return strings.Join(strings.Fields(inner.b.String()), " ")
}

// scripted are the elements whose children are arguments.
var scripted = map[string]bool{
	"msup": true, "msub": true, "msubsup": true, "munderover": true, "munder": true,
	"mover": true, "mfrac": true, "mroot": true,
}

// accents are the characters an <mover> puts over its base as an
// accent, written right after it ("x˙").
var accents = map[string]bool{
	"¯": true, "‾": true, "^": true, "ˆ": true, "~": true, "˜": true, "˙": true, "¨": true, "→": true, "⃗": true,
}

func (w *mathWriter) element(n *html.Node, depth int) {
	if depth > maxMathDepth || w.full() {
		return
	}
	kids := elementChildren(n)
	// Each argument is rendered once: rendered at each use, nested
	// accents took time exponential in their depth.
	var args [3]string
	if scripted[n.Data] {
		for i := 0; i < len(kids) && i < len(args); i++ {
			args[i] = w.group(kids[i], depth)
		}
	}
	arg := func(i int) string { return args[i] }
	switch n.Data {
	case "mi", "mn", "mo", "ms", "mtext":
		w.write(" ", strings.Join(strings.Fields(textOf(n)), " "), " ")
	case "mspace":
		w.write(" ")
	case "msup":
		w.write(" ", grouped(arg(0)), "^", grouped(arg(1)), " ")
	case "msub", "munder":
		w.write(" ", grouped(arg(0)), "_", grouped(arg(1)), " ")
	case "msubsup", "munderover":
		w.write(" ", grouped(arg(0)), "_", grouped(arg(1)), "^", grouped(arg(2)), " ")
	case "mover":
		if accents[arg(1)] {
			w.write(" ", grouped(arg(0)), arg(1), " ")
		} else {
			w.write(" ", grouped(arg(0)), "^", grouped(arg(1)), " ")
		}
	case "mfrac":
		w.write(" ", grouped(arg(0)), "/", grouped(arg(1)), " ")
	case "msqrt":
		inner := w.inner()
		inner.children(n, depth)
		w.write(" √", grouped(strings.Join(strings.Fields(inner.b.String()), " ")), " ")
	case "mroot":
		w.write(" √[", arg(1), "]", grouped(arg(0)), " ")
	case "mfenced":
		w.fenced(n, kids, depth)
	case "mtable":
		w.table(kids, depth)
	case "semantics":
		if len(kids) > 0 {
			w.element(kids[0], depth+1)
		}
	case "annotation", "annotation-xml", "mphantom", "none", "mprescripts", "malignmark", "maligngroup":
	default: // math, mrow, mstyle, mpadded, menclose, merror, maction, …
		w.children(n, depth)
	}
}

// fenced writes an <mfenced>: its children between its fences, apart by
// its separators.
func (w *mathWriter) fenced(n *html.Node, kids []*html.Node, depth int) {
	open, close, seps := "(", ")", ","
	if hasAttr(n, "open") {
		open = attr(n, "open")
	}
	if hasAttr(n, "close") {
		close = attr(n, "close")
	}
	if hasAttr(n, "separators") {
		seps = strings.Join(strings.Fields(attr(n, "separators")), "")
	}
	w.write(" ", open, " ")
	for i, k := range kids {
		if i > 0 && seps != "" {
			sep := []rune(seps)
			w.write(" ", string(sep[min(i-1, len(sep)-1)]), " ")
		}
		w.write(w.group(k, depth))
	}
	w.write(" ", close, " ")
}

// table writes an <mtable>: its cells apart by &, its rows by \\.
func (w *mathWriter) table(rows []*html.Node, depth int) {
	for i, row := range rows {
		if i > 0 {
			w.write(` \\ `)
		}
		cells := elementChildren(row)
		if row.Data == "mlabeledtr" && len(cells) > 0 {
			cells = cells[1:] // its label
		}
		for j, cell := range cells {
			if j > 0 {
				w.write(" & ")
			}
			w.write(w.group(cell, depth))
		}
	}
}

// grouped is s in parentheses when it is more than one token, as a
// script, a fraction's part or a root's content.
func grouped(s string) string {
	if strings.ContainsRune(s, ' ') && !parenthesized(s) {
		return "(" + s + ")"
	}
	return s
}

// parenthesized reports whether s is one group in parentheses, "( a + b )"
// but not "( a ) ( b )".
func parenthesized(s string) bool {
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return false
	}
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 && i < len(s)-1 {
				return false
			}
		}
	}
	return depth == 0
}

// elementChildren are n's element children.
func elementChildren(n *html.Node) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			out = append(out, c)
		}
	}
	return out
}
