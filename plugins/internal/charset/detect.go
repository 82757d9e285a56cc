package charset

import (
	"bytes"
	"cmp"
	"slices"
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

// The detector's answers are taken in order of confidence, ties broken
// by how well the sample reads in each (tieOrder), so that the same bytes
// always read the same: the detector ties Shift_JIS, GB18030, EUC-JP,
// EUC-KR and Big5 at one confidence on a short text, in an order that
// changes from run to run. The first answer is taken when the sample
// decodes in it without a replaced sequence; else the first in which it
// does, among those as sure as the first or, at any confidence, those of
// several bytes a character (a text valid in one of those is that text).
// Four Chinese characters of GB18030 came out as Shift_JIS, two sequences
// replaced; eight Japanese ones of Shift_JIS as windows-1252.
func detectWith(d *chardet.Detector, body []byte) (enc encoding.Encoding, name string, ok bool) {
	sample := body[:min(len(body), detectBytes)]
	results, err := d.DetectAll(sample)
	if err != nil {
		return nil, "", false
	}
	cut := len(body) > len(sample)
	type answer struct {
		enc        encoding.Encoding
		name       string
		confidence int
		clean      bool
		fit        int
	}
	var answers []answer
	for _, r := range results {
		e, n, err := Lookup(r.Charset)
		if err != nil {
			continue
		}
		a := answer{enc: e, name: n, confidence: r.Confidence}
		if r.Confidence == results[0].Confidence || multiByte(n) {
			a.clean, a.fit = readsIn(e, n, sample, cut)
		}
		answers = append(answers, a)
	}
	if len(answers) == 0 {
		return nil, "", false
	}
	slices.SortStableFunc(answers, func(a, b answer) int {
		// Japanese text read as Japanese, a quarter of it kana, is
		// Japanese whatever a single-byte charset scored: ありがとう of
		// Shift_JIS scored highest as windows-1251.
		if (a.fit > 0) != (b.fit > 0) {
			return cmp.Compare(b.fit, a.fit)
		}
		if a.confidence != b.confidence {
			return cmp.Compare(b.confidence, a.confidence)
		}
		if a.fit != b.fit {
			return cmp.Compare(b.fit, a.fit)
		}
		return cmp.Compare(tieOrder(a.name), tieOrder(b.name))
	})
	for _, a := range answers {
		if a.clean {
			return a.enc, a.name, true
		}
	}
	return answers[0].enc, answers[0].name, true
}

// readsIn decodes the sample in enc and tells whether no sequence was
// replaced, and how well the text fits the charset: a Japanese charset
// whose text is a quarter kana fits best, and text holding half-width
// katakana (which Shift_JIS reads from Chinese bytes: "ﾐｻﾐｻ") fits worst.
func readsIn(enc encoding.Encoding, name string, sample []byte, cut bool) (clean bool, fit int) {
	out, err := enc.NewDecoder().Bytes(sample)
	if err != nil {
		return false, 0
	}
	if cut {
		out = bytes.TrimSuffix(out, []byte("\uFFFD"))
	}
	if bytes.Contains(out, []byte("\uFFFD")) {
		return false, 0
	}
	kana, wide := 0, 0
	for _, r := range string(out) {
		switch {
		case r >= 0xFF61 && r <= 0xFF9F:
			return true, -1
		case r >= 0x3041 && r <= 0x30FF:
			kana++
		}
		if r >= 0x80 {
			wide++
		}
	}
	if writesJapanese(name) && kana > 0 && kana*4 >= wide {
		return true, 1
	}
	return true, 0
}

func writesJapanese(name string) bool {
	return name == "shift_jis" || name == "euc-jp" || name == "iso-2022-jp"
}

// tieOrder ranks the charsets the detector ties on short texts, by how
// many pages on the web are written in them: simplified Chinese first.
func tieOrder(name string) int {
	if i := slices.Index([]string{"gb18030", "shift_jis", "euc-kr", "big5", "euc-jp"}, name); i >= 0 {
		return i
	}
	return 100
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
