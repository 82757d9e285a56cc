package html

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// flattenDepths are the depths of open elements a page too deeply nested
// for x/net/html (which refuses a page whose stack of open elements
// passes 512, a limit no option lifts) is cut to, one after the other:
// the tokenizer counts tags as written, the parser also opens elements a
// page leaves implied (a table's tbody and tr double its depth), so the
// first cut leaves room and the later ones make sure.
var flattenDepths = []int{256, 128, 32}

// flatten rewrites page with every element opened deeper than depth
// dropped, its start tag and the end tag that closes it, its content
// kept where it stood: a 600-deep nest of unclosed <div>s becomes 256
// <div>s holding the same text. A dropped tag of a block (any element but
// the inline ones) leaves a line break, so the text of the blocks it
// separated does not run together ("post 126post 127"). One tokenizer pass, linear in the page;
// the elements past depth are counted in runs of one name, so a page of
// 100,000 nested tags costs one entry.
func flatten(page string, depth int) string {
	z := html.NewTokenizer(strings.NewReader(page))
	var out bytes.Buffer
	out.Grow(len(page))
	var open []string  // the elements kept, innermost last
	var excess []runOf // the elements dropped past depth, innermost last
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out.String()
		}
		raw := z.Raw()
		switch tt {
		case html.StartTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if isVoid(tag) {
				break
			}
			// A raw-text element is always kept: dropped, its script
			// or style would be read as text. It holds no elements, so
			// it deepens the page by one at most.
			if len(open) < depth || isRawText(tag) {
				open = append(open, tag)
				break
			}
			excess = pushRun(excess, tag)
			blockBreak(&out, tag)
			continue
		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if n := len(excess); n > 0 && excess[n-1].name == tag {
				excess = popRun(excess)
				blockBreak(&out, tag)
				continue
			}
			for i := len(open) - 1; i >= 0; i-- {
				if open[i] == tag {
					open = open[:i]
					break
				}
			}
		}
		out.Write(raw)
	}
}

// blockBreak writes the line break a dropped block's tag leaves: a
// character, shorter than any tag, so flatten never outgrows the page.
func blockBreak(out *bytes.Buffer, tag string) {
	if !inlineElements[tag] {
		out.WriteByte('\n')
	}
}

// runOf is a run of dropped elements of one name.
type runOf struct {
	name string
	n    int
}

func pushRun(runs []runOf, name string) []runOf {
	if n := len(runs); n > 0 && runs[n-1].name == name {
		runs[n-1].n++
		return runs
	}
	return append(runs, runOf{name, 1})
}

func popRun(runs []runOf) []runOf {
	n := len(runs)
	if runs[n-1].n--; runs[n-1].n == 0 {
		return runs[:n-1]
	}
	return runs
}

// isRawText reports whether the tokenizer reads an element's content as
// text, not tags.
func isRawText(tag string) bool {
	switch atom.Lookup([]byte(tag)) {
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Noscript, atom.Plaintext, atom.Script,
		atom.Style, atom.Textarea, atom.Title, atom.Xmp:
		return true
	}
	return false
}

// isVoid reports whether an element has no end tag, so opens nothing.
func isVoid(tag string) bool {
	switch atom.Lookup([]byte(tag)) {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input,
		atom.Keygen, atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}
