package csv

import "io"

// cellLimiter drops the bytes of each field past limit before
// encoding/csv sees them, which reads a whole record into memory (three
// copies of it, measured): a 100 MB cell then costs kilobytes, and memory
// follows the output, not the document. It tracks only what delimits a
// field (the separator and line ends outside quotes; a quote toggles
// quoting, which "" inside a quoted field does twice), and always passes
// quotes and line ends, so the structure and the line numbers of parse
// errors stay as they were. A column in an error after a cut cell on the
// same line counts the bytes kept.
type cellLimiter struct {
	src    []byte
	comma  byte
	limit  int
	quoted bool
	field  int // bytes of the current field so far
}

func (l *cellLimiter) Read(p []byte) (int, error) {
	n := 0
	for len(l.src) > 0 && n < len(p) {
		b := l.src[0]
		l.src = l.src[1:]
		switch {
		case b == '"':
			l.quoted = !l.quoted
		case b == '\n' || b == '\r':
			if !l.quoted {
				l.field = 0
			}
		case b == l.comma && !l.quoted:
			l.field = 0
		default:
			l.field++
			if l.field > l.limit {
				continue
			}
		}
		p[n] = b
		n++
	}
	if n == 0 && len(l.src) == 0 {
		return 0, io.EOF
	}
	return n, nil
}
