package markdown

import "strings"

// escapeText escapes what markdown would read as markup in a run of
// document text: emphasis, code and link brackets, HTML's angle bracket,
// the backslash itself, and in a cell the pipe. What starts a block at a
// line's start (#, >, a list marker) is escaped by the block writer,
// which knows where lines start.
func escapeText(s string, cell bool) string {
	if !strings.ContainsAny(s, "\\`*_[]<|~") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '[', ']', '<', '~':
			b.WriteByte('\\')
		case '_':
			// Inside a word (snake_case) an underscore is no emphasis.
			if i > 0 && i+1 < len(s) && isWordByte(s[i-1]) && isWordByte(s[i+1]) {
				break
			}
			b.WriteByte('\\')
		case '|':
			if cell {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// EscapeLineStart escapes what would make a line of text a block of
// another kind: a heading's #, a quote's >, a list's marker, a rule.
func EscapeLineStart(line string) string {
	trimmed := strings.TrimLeft(line, " ")
	if trimmed == "" {
		return line
	}
	switch trimmed[0] {
	case '#', '>', '=':
		return `\` + trimmed
	case '-', '+', '*':
		if len(trimmed) == 1 || trimmed[1] == ' ' || strings.Trim(trimmed, "-* ") == "" {
			return `\` + trimmed
		}
	}
	// An ordered list's "1." or "1)".
	i := 0
	for i < len(trimmed) && i < 9 && trimmed[i] >= '0' && trimmed[i] <= '9' {
		i++
	}
	if i > 0 && i < len(trimmed) && (trimmed[i] == '.' || trimmed[i] == ')') && (i+1 == len(trimmed) || trimmed[i+1] == ' ') {
		return trimmed[:i] + `\` + trimmed[i:]
	}
	return trimmed
}
