package charset

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
)

// FromMeta: the charset a page's <meta> declares.
const FromMeta Source = "meta"

// prescanBytes is how far into a page the HTML standard looks for its
// <meta> charset.
const prescanBytes = 1024

// DecodeHTML reads an HTML page, served with contentType, as text: its
// BOM, else the Content-Type's charset when the bytes fit it, else its
// <meta> charset when they fit that, else as Decode reads a body nothing
// describes (UTF-8 when it is, else detected). A declared charset the
// bytes do not fit gives way to detection, with a warning, when detection
// reads the page with fewer replaced bytes.
func DecodeHTML(body []byte, contentType string) Result {
	if enc, name, n, ok := bom(body); ok {
		return decodeWith(body[n:], enc, name, FromBOM)
	}
	var warnings []string
	unfit := false // a declared charset was set aside for not fitting
	for _, d := range []struct {
		label string
		from  Source
	}{
		{Param(contentType, "charset"), FromContentType},
		{metaLabel(body), FromMeta},
	} {
		if d.label == "" {
			continue
		}
		r, ok := declaredHTML(body, d.label, d.from)
		if ok {
			r.Warnings = append(warnings, r.Warnings...)
			return r
		}
		warnings = append(warnings, r.Warnings...)
		unfit = unfit || r.unfit
	}
	r := undeclaredWith(body, DetectHTML)
	if unfit {
		// Something was declared: the warning on the declaration says
		// how the page was read instead, not that nothing was.
		if len(r.Warnings) > 0 && strings.HasPrefix(r.Warnings[0], noCharsetNote) {
			r.Warnings = r.Warnings[1:]
		}
		how := "read as " + r.Charset
		if r.Source == FromDetection {
			how += ", detected"
		}
		warnings[len(warnings)-1] += ": " + how
	}
	r.Warnings = append(warnings, r.Warnings...)
	return r
}

// declaredHTML reads body by a label a page declares. ok is false when
// the label names nothing sift can decode, or when the bytes do not fit
// it and detection reads them better: the result then holds the warning
// that says so, and the caller goes on to the next source.
func declaredHTML(body []byte, label string, from Source) (Result, bool) {
	if from == FromMeta {
		if l := strings.ToLower(strings.TrimSpace(label)); strings.HasPrefix(l, "utf-16") {
			// The HTML standard: a <meta> cannot declare UTF-16, since
			// it was read as ASCII; it means UTF-8.
			label = "utf-8"
		}
		if _, name, err := Lookup(label); err == nil && name != "utf-8" && name != "windows-1252" && hasMultiByteUTF8(body) {
			// A stale <meta> (a page converted to UTF-8, its template
			// not): legacy text is valid UTF-8 with multi-byte sequences
			// by chance far less often than it is not (README.md).
			r := decodeWith(body, encoding.Nop, "utf-8", from)
			r.Warnings = append(r.Warnings, fmt.Sprintf("charset %q (%s) read as utf-8: the page is valid UTF-8", label, describe(from)))
			return r, true
		}
	}
	r, ok := byLabel(body, label, from)
	if !ok || r.replaced == 0 {
		return r, ok
	}
	if d := undeclaredWith(body, DetectHTML); d.replaced < r.replaced {
		return Result{unfit: true, Warnings: []string{fmt.Sprintf("charset %q (%s) does not fit the page (%d sequences are not valid in %s)", label, describe(from), r.replaced, r.Charset)}}, false
	}
	return r, true
}

// metaLabel returns the charset label the <meta> of a page's first 1024
// bytes declares, or "": the HTML standard's prescan, as
// x/net/html/charset implements it (which returns the encoding, not the
// label, and not whether a <meta> declared it).
func metaLabel(body []byte) string {
	z := html.NewTokenizer(bytes.NewReader(body[:min(len(body), prescanBytes)]))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			if name, hasAttr := z.TagName(); string(name) == "meta" && hasAttr {
				if label := metaCharset(z); label != "" {
					return label
				}
			}
		}
	}
}

// metaCharset reads the attributes of one <meta>: its charset, or the
// charset of its content when http-equiv says content-type.
func metaCharset(z *html.Tokenizer) string {
	var charset, content string
	pragma, seen := false, map[string]bool{}
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		key := string(k)
		if seen[key] {
			continue // the first of a repeated attribute counts
		}
		seen[key] = true
		switch key {
		case "charset":
			charset = strings.TrimSpace(string(v))
		case "content":
			content = string(v)
		case "http-equiv":
			pragma = strings.EqualFold(string(v), "content-type")
		}
	}
	if charset != "" {
		return charset
	}
	if pragma {
		return contentCharset(content)
	}
	return ""
}

// contentCharset extracts the charset from a <meta content> value, as the
// HTML standard's "extracting a character encoding from a meta element".
func contentCharset(s string) string {
	i := strings.Index(strings.ToLower(s), "charset")
	if i < 0 {
		return ""
	}
	s = strings.TrimLeft(s[i+len("charset"):], " \t\n\f\r")
	if !strings.HasPrefix(s, "=") {
		return contentCharset(s)
	}
	s = strings.TrimLeft(s[1:], " \t\n\f\r")
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		if end := strings.IndexByte(s[1:], s[0]); end >= 0 {
			return s[1 : 1+end]
		}
		return ""
	}
	if end := strings.IndexAny(s, " \t\n\f\r;"); end >= 0 {
		s = s[:end]
	}
	return s
}
