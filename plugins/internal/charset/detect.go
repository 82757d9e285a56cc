package charset

import (
	"bytes"
	"strings"

	"github.com/gogs/chardet"
	"golang.org/x/text/encoding"
)

// detectBytes is how much of a body the detector reads: the statistics
// settle long before (README.md), and a large body costs no more.
const detectBytes = 64 << 10

// Detect guesses the charset of a body no label describes: the detector's
// most confident answer that sift can decode. ok is false when it has
// none.
func Detect(body []byte) (enc encoding.Encoding, name string, ok bool) {
	return detectWith(chardet.NewTextDetector(), body)
}

// DetectHTML is Detect for a page: the detector skips its markup, whose
// ASCII would dilute the statistics of its text.
func DetectHTML(body []byte) (enc encoding.Encoding, name string, ok bool) {
	return detectWith(chardet.NewHtmlDetector(), body)
}

// The detector's first answer is taken when the sample decodes in it
// without a replaced sequence; else the first answer in which it does,
// among those as sure as the first or, at any confidence, those of
// several bytes a character (a text valid in one of those is that text).
// On a short text the detector ties Shift_JIS, GB18030, EUC-JP, EUC-KR and
// Big5, and took four Chinese characters of GB18030 for Shift_JIS, two
// sequences replaced; eight Japanese ones of Shift_JIS for windows-1252.
func detectWith(d *chardet.Detector, body []byte) (enc encoding.Encoding, name string, ok bool) {
	sample := body[:min(len(body), detectBytes)]
	results, err := d.DetectAll(sample)
	if err != nil {
		return nil, "", false
	}
	for _, r := range results {
		e, n, err := Lookup(r.Charset)
		if err != nil {
			continue
		}
		if !ok {
			enc, name, ok = e, n, true
		}
		if (r.Confidence == results[0].Confidence || multiByte(n)) && decodesCleanly(e, sample, len(body) > len(sample)) {
			return e, n, true
		}
	}
	return enc, name, ok
}

// multiByte reports whether a charset writes a character in several
// bytes; every byte is a character of the others, or nearly.
func multiByte(name string) bool {
	for _, single := range []string{"windows-", "iso-8859-", "koi8-", "ibm", "macintosh", "x-mac"} {
		if strings.HasPrefix(name, single) {
			return false
		}
	}
	return true
}

// decodesCleanly reports whether sample decodes in enc without a
// replacement character; when the sample was cut from a longer body, one
// at its very end is the character the cut split.
func decodesCleanly(enc encoding.Encoding, sample []byte, cut bool) bool {
	out, err := enc.NewDecoder().Bytes(sample)
	if err != nil {
		return false
	}
	if cut {
		out = bytes.TrimSuffix(out, []byte("\uFFFD"))
	}
	return !bytes.Contains(out, []byte("\uFFFD"))
}
