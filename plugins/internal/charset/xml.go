package charset

import (
	"bytes"
	"fmt"
	"regexp"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
)

// declaration is an XML declaration's encoding pseudo-attribute, at the
// very start of a document as XML requires.
var declaration = regexp.MustCompile(`^<\?xml[ \t\r\n][^>]*?\bencoding[ \t\r\n]*=[ \t\r\n]*["']([A-Za-z0-9._:\-]*)["']`)

// DecodeXML reads an XML document to UTF-8 by RFC 7303's order: its BOM,
// else the Content-Type's charset, else its declaration's encoding, else
// UTF-16 by the shape of its first characters, else UTF-8 when it is valid
// UTF-8, else the detected charset. The declaration in Text then says
// UTF-8, so an XML parser reads the text as it is and never decodes it a
// second time (encoding/xml would call its CharsetReader on the old
// label).
//
// A document labelled UTF-8 by its Content-Type that is not UTF-8, and
// whose declaration names another encoding, is read by its declaration:
// feeds are written by one program and served by another, whose default
// label is the one that is wrong.
func DecodeXML(body []byte, contentType string) Result {
	r := decodeXML(body, contentType)
	r.Text = sayUTF8(r.Text)
	return r
}

func decodeXML(body []byte, contentType string) Result {
	if enc, name, n, ok := bom(body); ok {
		return decodeWith(body[n:], enc, name, FromBOM)
	}
	var warnings []string
	declared := ""
	if m := declaration.FindSubmatch(body[:min(len(body), 1024)]); m != nil {
		declared = string(m[1])
	}
	if label := Param(contentType, "charset"); label != "" {
		r, ok := byLabel(body, label, FromContentType)
		switch {
		case ok && r.Charset == "utf-8" && !utf8.Valid(body) && declared != "" && !isUTF8Label(declared):
			warnings = append(warnings, fmt.Sprintf("charset %q (from the Content-Type) does not fit the body: read by its XML declaration", label))
		case ok:
			return r
		default:
			warnings = append(warnings, r.Warnings...)
		}
	}
	if declared != "" {
		r, ok := byLabel(body, declared, FromDeclaration)
		if ok {
			r.Warnings = append(warnings, r.Warnings...)
			return r
		}
		warnings = append(warnings, r.Warnings...)
	}
	var r Result
	switch {
	case bytes.HasPrefix(body, []byte{'<', 0, '?', 0}):
		r = decodeWith(body, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le", FromDetection)
	case bytes.HasPrefix(body, []byte{0, '<', 0, '?'}):
		r = decodeWith(body, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "utf-16be", FromDetection)
	default:
		r = undeclaredWith(body, Detect)
	}
	r.Warnings = append(warnings, r.Warnings...)
	return r
}

func isUTF8Label(label string) bool {
	_, name, err := Lookup(label)
	return err == nil && name == "utf-8"
}

// sayUTF8 rewrites the encoding of an XML declaration at the start of
// text to UTF-8.
func sayUTF8(text []byte) []byte {
	m := declaration.FindSubmatchIndex(text[:min(len(text), 1024)])
	if m == nil {
		return text
	}
	out := make([]byte, 0, len(text)+8)
	out = append(out, text[:m[2]]...)
	out = append(out, "UTF-8"...)
	return append(out, text[m[3]:]...)
}
