package charset

import (
	"bytes"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// bom reports the encoding a byte-order mark at the start of body names,
// and the mark's length. WHATWG knows three; UTF-32 is no web encoding.
func bom(body []byte) (encoding.Encoding, string, int, bool) {
	switch {
	case bytes.HasPrefix(body, []byte{0xef, 0xbb, 0xbf}):
		return encoding.Nop, "utf-8", 3, true
	case bytes.HasPrefix(body, []byte{0xfe, 0xff}):
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be", 2, true
	case bytes.HasPrefix(body, []byte{0xff, 0xfe}):
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le", 2, true
	}
	return nil, "", 0, false
}
