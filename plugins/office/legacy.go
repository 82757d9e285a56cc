package office

import (
	"bytes"

	"github.com/siftd/sift/plugins/sdk"
)

// oleMagic starts an OLE compound file, the container of Office 97-2003's
// binary formats.
const oleMagic = "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

// legacyFormat answers Office 97-2003's binary formats (.doc, .xls,
// .ppt) as unsupported, naming which one the document is: no pure-Go
// reader of them is well kept (README.md). A compound file names its
// streams in UTF-16; the one that holds the document tells the format,
// whatever type it was served as.
func legacyFormat(mediaType string, body []byte) (*sdk.DocError, bool) {
	isOLE := bytes.HasPrefix(body, []byte(oleMagic))
	switch {
	case isOLE && hasStream(body, "WordDocument"), !isOLE && mediaType == typeDOC:
		return sdk.Unsupported("a Word 97-2003 document (.doc, binary) is not read; save it as .docx or .odt"), true
	case isOLE && hasStream(body, "Workbook"), isOLE && hasStream(body, "Book"), !isOLE && mediaType == typeXLS:
		return sdk.Unsupported("an Excel 97-2003 workbook (.xls, BIFF) is not read: no well-kept pure-Go reader exists; save it as .xlsx or .ods"), true
	case isOLE && hasStream(body, "PowerPoint Document"), !isOLE && mediaType == typePPT:
		return sdk.Unsupported("a PowerPoint 97-2003 presentation (.ppt, binary) is not read; save it as .pptx or .odp"), true
	case isOLE && hasStream(body, "EncryptedPackage"):
		return &sdk.DocError{Class: ClassEncrypted, Message: "the document is encrypted with a password (an OOXML package inside an OLE compound file)"}, true
	case isOLE:
		return sdk.Unsupported("an OLE compound file that holds no Word, Excel or PowerPoint document"), true
	}
	return nil, false
}

// ClassEncrypted is a document that needs a password, as the pdf
// extractor names it.
const ClassEncrypted = "encrypted"

// hasStream reports whether a compound file's directory names a stream
// called name: directory entries hold names as UTF-16LE, NUL-terminated.
func hasStream(body []byte, name string) bool {
	u := make([]byte, 0, 2*len(name)+2)
	for _, c := range []byte(name) {
		u = append(u, c, 0)
	}
	return bytes.Contains(body, append(u, 0, 0))
}
