package zipdoc

import "encoding/xml"

// tokText is a token's character data.
func tokText(tok xml.Token) (string, bool) {
	cd, ok := tok.(xml.CharData)
	return string(cd), ok
}
