// Package invisible removes from text the characters a reader cannot see
// but a language model reads: Unicode tag characters, bidirectional
// controls, zero-width characters, soft hyphens and control codes. Text
// hidden with them is a known way to slip instructions past the human who
// checks what an agent was given. Escape, for terminals, shows the same
// characters and every control code as escapes instead.
package invisible

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Removed reports whether r is one of the characters Strip removes.
func Removed(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t' && r != '\r'
	case r < 0x7f:
		return false
	case r <= 0x9f: // DEL and the C1 controls
		return true
	}
	switch r {
	case 0x00AD, // soft hyphen
		0x061C,                 // Arabic letter mark, a bidirectional control
		0x200B, 0x200C, 0x200D, // zero-width space, non-joiner, joiner
		0x200E, 0x200F, // left-to-right and right-to-left marks
		0x2060, // word joiner
		0xFEFF: // zero-width no-break space (byte-order mark)
		return true
	}
	return between(r, 0x202A, 0x202E) || // bidirectional embeddings and overrides
		between(r, 0x2061, 0x2064) || // invisible mathematical operators
		between(r, 0x2066, 0x2069) || // bidirectional isolates
		between(r, 0xE0000, 0xE007F) || // tag characters
		between(r, 0xE0100, 0xE01EF) // variation selectors 17–256, used to smuggle bytes
}

func between(r, lo, hi rune) bool { return r >= lo && r <= hi }

// Strip returns s without the characters Removed reports, and how many it
// removed. Line ends become "\n" without being counted: "\r\n" is a
// Windows line end, and a lone "\r", which a terminal would use to
// overwrite a line, shows what it would have hidden. Each invalid UTF-8
// byte becomes U+FFFD, uncounted, as JSON encoding would make it anyway:
// left in, invalid bytes around a removed one could join into a character
// this removes. Text with nothing to change is returned as it came.
func Strip(s string) (string, int) {
	i := firstToStrip(s)
	if i < 0 {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	n := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r':
			if !strings.HasPrefix(s[i+1:], "\n") {
				b.WriteByte('\n')
			}
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case Removed(r):
			n++
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String(), n
}

// firstToStrip is the index of the first byte Strip changes, or -1.
func firstToStrip(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f { // printable ASCII, most of any text
			i++
			continue
		}
		if c < utf8.RuneSelf {
			if c == '\r' || Removed(rune(c)) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if Removed(r) || (r == utf8.RuneError && size == 1) {
			return i
		}
		i += size
	}
	return -1
}

// Counter strips several strings of one answer and counts what it removed
// from all of them, for one warning.
type Counter struct{ n int }

// Strip strips s and adds what it removed to the count.
func (c *Counter) Strip(s string) string {
	out, n := Strip(s)
	c.n += n
	return out
}

// Count is how many characters the counter removed.
func (c *Counter) Count() int { return c.n }

// Warning tells the agent what was removed, or is "" when nothing was: a
// page that hides text should make it suspicious of the rest.
func (c *Counter) Warning() string { return Warning(c.n) }

// Warning says that n characters were removed, or is "" for none.
func Warning(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("removed %d invisible or control characters (tag characters, bidirectional controls, "+
		"zero-width characters, soft hyphens or control codes): text hidden this way can carry instructions", n)
}
