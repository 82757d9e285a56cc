package zipdoc

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/encoding/htmlindex"

	"github.com/siftd/sift/plugins/sdk"
)

// NewDecoder returns a strict decoder of XML tokens. encoding/xml knows
// only the five predefined entities and character references: an entity a
// document declares in its doctype is never expanded (a strict decoder
// fails on its use), and no external entity or DTD is ever fetched, so a
// billion-laughs document costs nothing and an external one reads no file.
// An encoding other than UTF-8 is decoded when it has a WHATWG label.
func NewDecoder(r io.Reader) *xml.Decoder {
	d := xml.NewDecoder(r)
	d.Strict = true
	d.CharsetReader = charsetReader
	return d
}

func charsetReader(label string, in io.Reader) (io.Reader, error) {
	enc, err := htmlindex.Get(strings.TrimSpace(label))
	if err != nil {
		return nil, fmt.Errorf("encoding %q is not one sift decodes", label)
	}
	return enc.NewDecoder().Reader(in), nil
}

// Attr returns the value of the attribute of se named local, in any
// namespace, or "".
func Attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// AttrNS returns the value of the attribute of se named local in the
// namespace space, or "".
func AttrNS(se xml.StartElement, space, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local && a.Name.Space == space {
			return a.Value
		}
	}
	return ""
}

// XMLError reports an error met decoding entry name: a bound's error
// (an sdk.DocError) as it is, anything else as the document's malformed
// XML, an invalid document.
func XMLError(name string, err error) error {
	var de *sdk.DocError
	if errors.As(err, &de) {
		return err
	}
	return sdk.Invalid("%s: malformed XML: %v", name, err)
}
