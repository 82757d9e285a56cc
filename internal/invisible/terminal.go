package invisible

import (
	"fmt"
	"unicode/utf8"
)

// Escape makes p safe to write to a terminal: every control byte (C0 and
// DEL but newline, tab, form feed and a carriage return before a newline),
// C1 control, character Removed reports and invalid UTF-8 byte is written
// as a Go escape (\x1b, \u202e), so that text cannot move the cursor,
// clear the screen, retitle the window or hide words from whoever reads
// it. p itself is returned when it holds none.
func Escape(p []byte) []byte {
	i := firstToEscape(p)
	if i < 0 {
		return p
	}
	out := append(make([]byte, 0, len(p)+16), p[:i]...)
	for i < len(p) {
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1, r < utf8.RuneSelf && !safeASCII(p, i):
			out = fmt.Appendf(out, `\x%02x`, p[i])
		case r >= utf8.RuneSelf && Removed(r):
			if r > 0xFFFF {
				out = fmt.Appendf(out, `\U%08x`, r)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		default:
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	return out
}

// firstToEscape is the index of the first byte Escape escapes, or -1.
func firstToEscape(p []byte) int {
	for i := 0; i < len(p); {
		if p[i] < utf8.RuneSelf {
			if !safeASCII(p, i) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if (r == utf8.RuneError && size == 1) || Removed(r) {
			return i
		}
		i += size
	}
	return -1
}

// safeASCII reports whether the ASCII byte p[i] may reach a terminal raw.
func safeASCII(p []byte, i int) bool {
	switch c := p[i]; {
	case c == '\n', c == '\t', c == '\f':
		return true
	case c == '\r':
		return i+1 < len(p) && p[i+1] == '\n'
	default:
		return c >= 0x20 && c != 0x7f
	}
}
