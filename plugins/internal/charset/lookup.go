package charset

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
)

// aliases are labels in common use that neither the WHATWG nor the IANA
// registry lists: Windows code page numbers (Python and Java name them so)
// and detector names.
var aliases = map[string]string{
	"cp932":    "shift_jis",
	"cp936":    "gbk",
	"cp949":    "euc-kr",
	"cp950":    "big5",
	"cp65001":  "utf-8",
	"gb-18030": "gb18030",
}

// errReplacement is the WHATWG rule for ISO-2022-KR, HZ-GB-2312 and the
// like: decoders must not read them, since their escapes hide markup.
var errReplacement = errors.New("the WHATWG Encoding standard maps it to replacement, not to text")

// Lookup finds the encoding a charset label names, by the WHATWG labels
// (which browsers use), then the IANA registry's names and aliases, then
// the aliases above; name is the WHATWG name of what it found. Labels are
// matched without case, and "_" stands for "-" as Python writes them.
func Lookup(label string) (enc encoding.Encoding, name string, err error) {
	l := strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	if l == "" {
		return nil, "", errors.New("empty label")
	}
	for _, try := range []string{l, strings.ReplaceAll(l, "_", "-"), aliases[l]} {
		if try == "" {
			continue
		}
		if enc, name, err = find(try); err == nil || errors.Is(err, errReplacement) {
			return enc, name, err
		}
	}
	return nil, "", fmt.Errorf("no such charset")
}

func find(label string) (encoding.Encoding, string, error) {
	enc, err := htmlindex.Get(label)
	if err != nil {
		enc, err = ianaindex.IANA.Encoding(label)
		if err != nil || enc == nil {
			return nil, "", errors.New("unknown")
		}
	}
	if enc == encoding.Replacement {
		return nil, "", errReplacement
	}
	name, err := htmlindex.Name(enc)
	if err != nil {
		// An IANA encoding WHATWG does not list (IBM037, say).
		if name, err = ianaindex.IANA.Name(enc); err != nil {
			name = label
		}
	}
	if enc == unicode.UTF8 {
		enc = encoding.Nop
	}
	return enc, strings.ToLower(name), nil
}
