// Package charset decodes the text documents sift's extractors read (web
// pages, plain text, CSV, feeds) to UTF-8, and says how: by a byte-order
// mark, by the charset the Content-Type names, by an XML declaration or a
// page's <meta>, or by detection.
// A charset it cannot decode, and bytes it had to replace, are named in
// the result's warnings: text is never replaced in silence.
//
// The order follows the WHATWG Encoding standard's decode (and, for XML,
// RFC 7303): a BOM wins over a label, a label over detection. A body no
// label describes is UTF-8 when it is valid UTF-8, and otherwise what the
// detector (ICU's, ported by github.com/gogs/chardet) finds; README.md has
// the measurement that chose it over the HTML standard's windows-1252
// fallback.
package charset

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
)

// Source says where the charset a document was read in came from.
type Source string

// The sources of a charset, strongest first.
const (
	FromBOM         Source = "bom"
	FromContentType Source = "content-type"
	FromDeclaration Source = "declaration"
	// FromDetection: nothing declared a charset and the body is not
	// UTF-8, so the detector chose one.
	FromDetection Source = "detected"
	// FromDefault: nothing declared a charset and the body is valid UTF-8.
	FromDefault Source = "default"
)

// Result is a document decoded to UTF-8.
type Result struct {
	// Text is the document in valid UTF-8, without a byte-order mark.
	Text []byte
	// Charset is the WHATWG name of the encoding it was read in ("utf-8",
	// "shift_jis", "windows-1252").
	Charset string
	Source  Source
	// Warnings name what an agent should know: a charset that could not
	// be decoded, a guess, bytes replaced with U+FFFD.
	Warnings []string
	// replaced counts the sequences replaced with U+FFFD: how badly the
	// bytes fit the charset, which DecodeHTML weighs against detection.
	replaced int
	// unfit: DecodeHTML set the declared charset aside.
	unfit bool
}

// Decode reads body, served with contentType, as text: its BOM, else the
// Content-Type's charset, else UTF-8 when it is valid UTF-8, else the
// detected charset.
func Decode(body []byte, contentType string) Result {
	if enc, name, n, ok := bom(body); ok {
		return decodeWith(body[n:], enc, name, FromBOM)
	}
	var warnings []string
	if label := Param(contentType, "charset"); label != "" {
		r, ok := byLabel(body, label, FromContentType)
		if ok {
			return r
		}
		warnings = append(warnings, r.Warnings...)
	}
	r := undeclaredWith(body, Detect)
	r.Warnings = append(warnings, r.Warnings...)
	return r
}

// byLabel decodes body by a declared charset label. When the label names
// nothing sift can decode, ok is false and the result holds only the
// warning that says so.
func byLabel(body []byte, label string, from Source) (Result, bool) {
	enc, name, err := Lookup(label)
	if err != nil {
		return Result{Warnings: []string{fmt.Sprintf("charset %q (%s) is not one sift can decode: %v", label, describe(from), err)}}, false
	}
	if name == "windows-1252" && hasMultiByteUTF8(body) {
		// ISO-8859-1 is a server's default label (Apache's
		// AddDefaultCharset): a body in it that is also valid UTF-8 with
		// multi-byte sequences is, but for a freak, UTF-8 mislabelled.
		r := decodeWith(body, encoding.Nop, "utf-8", from)
		r.Warnings = append(r.Warnings, fmt.Sprintf("charset %q (%s) read as utf-8: the body is valid UTF-8", label, describe(from)))
		return r, true
	}
	return decodeWith(body, enc, name, from), true
}

// noCharsetNote begins the warning on a guess.
const noCharsetNote = "no charset declared and the text is not UTF-8: "

// undeclaredWith reads a body no label describes, guessing its charset
// with detect when it is not UTF-8.
func undeclaredWith(body []byte, detect func([]byte) (encoding.Encoding, string, bool)) Result {
	if utf8.Valid(body) && bytes.IndexByte(body, 0x1b) < 0 || mostlyUTF8(body) {
		return decodeWith(body, encoding.Nop, "utf-8", FromDefault)
	}
	enc, name, ok := detect(body)
	if !ok || utf8.Valid(body) && !strings.HasPrefix(name, "iso-2022-") {
		// Valid UTF-8 with an escape byte that is no ISO-2022 text (a
		// terminal's colour codes).
		return decodeWith(body, encoding.Nop, "utf-8", FromDefault)
	}
	r := decodeWith(body, enc, name, FromDetection)
	if name != "utf-8" {
		r.Warnings = append([]string{fmt.Sprintf(noCharsetNote+"read as %s, detected", name)}, r.Warnings...)
	}
	return r
}

func describe(from Source) string {
	switch from {
	case FromContentType:
		return "from the Content-Type"
	case FromDeclaration:
		return "from the XML declaration"
	case FromMeta:
		return "from the page's <meta>"
	}
	return string(from)
}

// decodeWith decodes body in enc (encoding.Nop for UTF-8), counting what
// it has to replace.
func decodeWith(body []byte, enc encoding.Encoding, name string, from Source) Result {
	r := Result{Charset: name, Source: from}
	var replaced int
	if name == "utf-8" {
		r.Text, replaced = validUTF8(body)
	} else {
		out, err := enc.NewDecoder().Bytes(body)
		if err != nil {
			// x/text's decoders replace what they cannot read; an error
			// is a decoder's own failure, reported rather than hidden.
			r.Warnings = append(r.Warnings, fmt.Sprintf("decoding %s failed (%v): the text is read as UTF-8", name, err))
			r.Text, replaced = validUTF8(body)
			r.Charset = "utf-8"
		} else {
			r.Text = out
			replaced = bytes.Count(out, []byte("\uFFFD"))
		}
	}
	r.Text = bytes.TrimPrefix(r.Text, []byte("\uFEFF"))
	r.replaced = replaced
	if replaced > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%d sequences not valid in %s were replaced with U+FFFD", replaced, r.Charset))
	}
	return r
}

// validUTF8 returns body with each invalid sequence replaced by U+FFFD,
// and how many it replaced.
func validUTF8(body []byte) ([]byte, int) {
	if utf8.Valid(body) {
		return body, 0
	}
	out := make([]byte, 0, len(body)+16)
	n := 0
	for len(body) > 0 {
		r, size := utf8.DecodeRune(body)
		if r == utf8.RuneError && size <= 1 {
			out = append(out, "\uFFFD"...)
			n++
			// One replacement for a run of invalid bytes, as
			// strings.ToValidUTF8 does.
			for body = body[size:]; len(body) > 0; body = body[1:] {
				if r, s := utf8.DecodeRune(body); r != utf8.RuneError || s > 1 {
					break
				}
			}
			continue
		}
		out = append(out, body[:size]...)
		body = body[size:]
	}
	return out, n
}

// mostlyUTF8 reports whether body holds more valid multi-byte UTF-8
// sequences than invalid bytes: UTF-8 with a stray byte (a C1 control, a
// cut sequence), which is read as UTF-8 with the byte replaced and
// counted. Text in a legacy charset forms a valid sequence by chance far
// less often than it breaks one (Shift_JIS, windows-1252: none in the
// test files), so it still goes to the detector.
func mostlyUTF8(body []byte) bool {
	valid, invalid := 0, 0
	for len(body) > 0 {
		r, size := utf8.DecodeRune(body)
		switch {
		case r == utf8.RuneError && size <= 1:
			invalid++
		case size > 1:
			valid++
		}
		body = body[size:]
	}
	return invalid > 0 && valid > invalid
}

// hasMultiByteUTF8 reports whether body is valid UTF-8 holding at least
// one multi-byte sequence.
func hasMultiByteUTF8(body []byte) bool {
	for _, b := range body {
		if b >= 0x80 {
			return utf8.Valid(body)
		}
	}
	return false
}

// Param returns the value of a Content-Type parameter, unquoted, or "".
// It reads what mime.ParseMediaType refuses whole (a trailing ';', a
// duplicate parameter), as servers send it.
func Param(contentType, name string) string {
	parts := strings.Split(contentType, ";")
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}
