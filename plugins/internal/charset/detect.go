package charset

import (
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

func detectWith(d *chardet.Detector, body []byte) (enc encoding.Encoding, name string, ok bool) {
	results, err := d.DetectAll(body[:min(len(body), detectBytes)])
	if err != nil {
		return nil, "", false
	}
	for _, r := range results {
		if enc, name, err := Lookup(r.Charset); err == nil {
			return enc, name, true
		}
	}
	return nil, "", false
}
