package html

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// A page whose body is one 4 MB <pre> took seconds to read: go-trafilatura
// (its language detection, its trimming of every text), the markdown
// converter and sift's own rules each read the whole text, at about a
// microsecond a byte together, and all but the first mebibyte of it was
// then cut at the output cap. Nothing past the cap's worth of visible
// characters in one text node can reach the output: the markdown and the
// HTML keep every character of the text they render but its blanks, so
// that text is past the cap wherever the node stands. cutLongTexts cuts
// such a node there, before anything reads the page, and says so: the
// page is read in the time of its first mebibyte, and its output is what
// it was, cut at the cap.
//
// The text is cut at a smaller cap than DefaultMaxOutput's mebibyte only
// by that much: go-trafilatura weighs the length of each text, and a
// page's paragraphs cut at a cap of 100 bytes were no longer the content
// it picked. Past a mebibyte no length it weighs changes.

// rawTextParents hold text the parser does not read as the page's text
// (scripts, styles, a <noscript>'s markup): cut, a script's JSON-LD or a
// stylesheet would no longer parse, and what they say would change.
var rawTextParents = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true, atom.Textarea: true,
	atom.Title: true, atom.Xmp: true, atom.Iframe: true, atom.Noembed: true, atom.Noframes: true, atom.Plaintext: true,
}

// cutLongTexts cuts each text node under root whose visible characters
// (all but its blanks) pass maxOut bytes right after the character that
// passes it, and returns the warning naming what was cut, or "". The
// output cap then cuts the output at a line end before that character. It
// is one walk of the tree.
func cutLongTexts(root *html.Node, maxOut int64) string {
	var cut, longest, kept int
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode && int64(len(c.Data)) > maxOut:
				if end := visibleEnd(c.Data, maxOut); end < len(c.Data) {
					cut++
					longest = max(longest, len(c.Data))
					kept = max(kept, end)
					c.Data = c.Data[:end]
				}
			case c.Type == html.ElementNode && rawTextParents[c.DataAtom]:
			default:
				walk(c)
			}
		}
	}
	walk(root)
	switch {
	case cut == 0:
		return ""
	case cut == 1:
		return fmt.Sprintf("a text of %d KB in one element was read up to the output cap (its first %d KB); the rest is left out", longest/1000, kept/1000)
	default:
		return fmt.Sprintf("%d texts of up to %d KB in one element each were read up to the output cap; the rest of each is left out", cut, longest/1000)
	}
}

// visibleEnd is the end of the character of s whose bytes take its
// visible characters past maxOut bytes, or len(s) when they do not pass
// it.
func visibleEnd(s string, maxOut int64) int {
	var visible int64
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if unicode.IsSpace(r) {
			continue
		}
		if visible += int64(size); visible > maxOut {
			return i
		}
	}
	return len(s)
}
