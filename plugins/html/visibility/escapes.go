package visibility

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/net/html"
)

// CSS lets any character of a name or value be written as an escape: a
// backslash and up to six hex digits (one blank after them is part of
// the escape), or a backslash before the character itself. A browser
// reads `disp\lay: n\6f ne` as display: none, so an instruction hidden by
// an escaped declaration was read by sift, whose readers look for the
// words as written. Styles are written without their escapes before
// anything reads them, and so are the declarations of stylesheet rules
// (parseDeclarations); selectors keep theirs, which name classes such as
// Tailwind's `md\:hidden` and are matched by cascadia.

// UnescapeStyles writes the style attribute of every element under root
// without its CSS escapes: the html plugin calls it before any rule reads
// a style.
func UnescapeStyles(root *html.Node) {
	for n := range root.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		for i, a := range n.Attr {
			if a.Namespace == "" && strings.EqualFold(a.Key, "style") && strings.IndexByte(a.Val, '\\') >= 0 {
				n.Attr[i].Val = unescapeCSS(a.Val)
			}
		}
	}
}

// unescapeCSS resolves the escapes of s as CSS Syntax 3 consumes an
// escaped code point: a code point of zero, a surrogate or past U+10FFFF
// is U+FFFD, as is a backslash at the end; a backslash before a line
// break (a string's line continuation) is dropped with the break. An
// escape that stands for a character an identifier cannot start with
// unescaped (a digit, "#", "." and the like) is left as written: an
// escape makes it part of an identifier, so `opacity: \30` and
// `color: \23 fff` are no number and no colour to a browser, which drops
// them, and must not become "0" and "#fff" here.
func unescapeCSS(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		start := i
		i++
		switch {
		case i == len(s):
			b.WriteRune(utf8.RuneError)
		case s[i] == '\n' || s[i] == '\f':
			i++
		case s[i] == '\r':
			i++
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case isHexDigit(s[i]):
			var r rune
			j := i
			for ; j < len(s) && j-i < 6 && isHexDigit(s[j]); j++ {
				r = r<<4 | rune(hexValue(s[j]))
			}
			i = j
			if i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f') {
				i++
			} else if i < len(s) && s[i] == '\r' {
				i++
				if i < len(s) && s[i] == '\n' {
					i++
				}
			}
			if r == 0 || r > utf8.MaxRune || r >= 0xD800 && r <= 0xDFFF {
				r = utf8.RuneError
			}
			writeEscaped(&b, r, s[start:i])
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			i += size
			writeEscaped(&b, r, s[start:i])
		}
	}
	return b.String()
}

// writeEscaped writes r, the character an escape stands for, when it is
// one a name is written with, else the escape as written.
func writeEscaped(b *strings.Builder, r rune, escape string) {
	if r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 {
		b.WriteRune(r)
		return
	}
	b.WriteString(escape)
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexValue(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// unescapedTokens returns tokens with the escapes of each resolved (a
// copy where one has any: the parser reuses its tokens).
func unescapedTokens(tokens []css.Token) []css.Token {
	var out []css.Token
	for i, t := range tokens {
		if bytes.IndexByte(t.Data, '\\') >= 0 {
			if out == nil {
				out = append([]css.Token(nil), tokens...)
			}
			out[i].Data = []byte(unescapeCSS(string(t.Data)))
		}
	}
	if out == nil {
		return tokens
	}
	return out
}

// escapesInDeclarations returns the offsets of the backslashes of text, a
// stylesheet, that stand in a list of declarations (between a "{" and the
// "}" that ends it, no rule nested in between): declaringRules reads the
// rules around them whatever words they spell (`d\isplay: none`), where
// it reads other rules only for the words it looks for. A backslash in a
// selector (Tailwind's `.md\:hidden`) is no such hint.
func escapesInDeclarations(text string) []int {
	if strings.IndexByte(text, '\\') < 0 {
		return nil
	}
	var found, pending []int
	inBlock := false
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '{':
			inBlock, pending = true, pending[:0]
		case '}':
			if inBlock {
				found = append(found, pending...)
			}
			inBlock, pending = false, pending[:0]
		case '\\':
			if inBlock {
				pending = append(pending, i)
			}
			i++ // the escaped character is no brace
		}
	}
	return found
}
