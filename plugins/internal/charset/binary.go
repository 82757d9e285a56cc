package charset

import "fmt"

// binaryShare is the share of control bytes past which a body is binary
// data, not text: one in a hundred. Random bytes hold about one in ten;
// text in any charset a page is served in (UTF-16 aside, which a BOM
// announces) holds none but the odd stray NUL.
const binaryShare = 100

// Binary returns an error, naming what it found, when body is binary data
// rather than text in any charset: when more than one in a hundred of its
// first 64 KiB are the control bytes the WHATWG MIME Sniffing standard
// calls binary data bytes (NUL to BS, VT, SO to SUB, FS to US; never TAB,
// LF, FF, CR or the ESC of ISO-2022). A body with a UTF-16 byte-order mark
// is text.
func Binary(body []byte) error {
	if _, name, _, ok := bom(body); ok && name != "utf-8" {
		return nil
	}
	head := body[:min(len(body), detectBytes)]
	n := 0
	for _, b := range head {
		if isBinaryByte(b) {
			n++
		}
	}
	if n*binaryShare > len(head) {
		return fmt.Errorf("the body is binary data, not text: %d of its first %d bytes are control bytes", n, len(head))
	}
	return nil
}

func isBinaryByte(b byte) bool {
	return b <= 0x08 || b == 0x0b || 0x0e <= b && b <= 0x1a || 0x1c <= b && b <= 0x1f
}
