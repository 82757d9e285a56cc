package ocr

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// EXIF tags read: the image's description and the title and subject
// Windows writes (XPTitle, XPSubject, UTF-16).
const (
	tagImageDescription = 0x010e
	tagXPTitle          = 0x9c9b
	tagXPSubject        = 0x9c9f
)

// maxEXIFEntries bounds the entries read in IFD0.
const maxEXIFEntries = 512

// exifFields reads title and description from a TIFF-structured EXIF
// block (a TIFF file itself, or the payload of JPEG's APP1, PNG's eXIf
// and WebP's EXIF chunk). Anything malformed gives nothing.
func exifFields(tiff []byte) (title, description string) {
	if len(tiff) < 8 {
		return "", ""
	}
	var bo binary.ByteOrder
	switch string(tiff[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return "", ""
	}
	ifd := int(bo.Uint32(tiff[4:8]))
	if ifd < 8 || ifd+2 > len(tiff) {
		return "", ""
	}
	n := min(int(bo.Uint16(tiff[ifd:])), maxEXIFEntries)
	for i := range n {
		e := ifd + 2 + 12*i
		if e+12 > len(tiff) {
			break
		}
		tag, typ, count := bo.Uint16(tiff[e:]), bo.Uint16(tiff[e+2:]), int(bo.Uint32(tiff[e+4:]))
		if count <= 0 || count > 1<<16 {
			continue
		}
		size := count // ASCII and BYTE are one byte a value
		if typ != 2 && typ != 1 && typ != 7 {
			continue
		}
		val := tiff[e+8 : e+12]
		if size > 4 {
			off := int(bo.Uint32(val))
			if off < 0 || off+size > len(tiff) {
				continue
			}
			val = tiff[off : off+size]
		} else {
			val = val[:size]
		}
		switch tag {
		case tagImageDescription:
			description = clean(string(bytes.TrimRight(val, "\x00")))
		case tagXPTitle:
			title = clean(utf16le(val))
		case tagXPSubject:
			if description == "" {
				description = clean(utf16le(val))
			}
		}
	}
	return title, description
}

func utf16le(b []byte) string {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])|uint16(b[i+1])<<8)
	}
	return strings.TrimRight(string(utf16.Decode(u)), "\x00")
}

// clean keeps a field's printable text, trimmed; cameras write
// "          " or "OLYMPUS DIGITAL CAMERA" into it (the latter kept).
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r == 0xfffd {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// exifBlock finds the EXIF block of an image by its format.
func exifBlock(format string, body []byte) []byte {
	switch format {
	case "tiff":
		return body
	case "jpeg":
		// Segments up to the start of scan: APP1 holding "Exif\0\0".
		for i := 2; i+4 <= len(body); {
			if body[i] != 0xff {
				return nil
			}
			marker := body[i+1]
			if marker == 0xda || marker == 0xd9 {
				return nil
			}
			n := int(binary.BigEndian.Uint16(body[i+2:]))
			if n < 2 || i+2+n > len(body) {
				return nil
			}
			seg := body[i+4 : i+2+n]
			if marker == 0xe1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")) {
				return seg[6:]
			}
			i += 2 + n
		}
	case "png":
		for i := 8; i+12 <= len(body); {
			n := int(binary.BigEndian.Uint32(body[i:]))
			typ := string(body[i+4 : i+8])
			if n < 0 || i+12+n > len(body) {
				return nil
			}
			if typ == "eXIf" {
				return body[i+8 : i+8+n]
			}
			if typ == "IDAT" || typ == "IEND" {
				return nil
			}
			i += 12 + n
		}
	case "webp":
		for i := 12; i+8 <= len(body); {
			n := int(binary.LittleEndian.Uint32(body[i+4:]))
			if n < 0 || i+8+n > len(body) {
				return nil
			}
			if string(body[i:i+4]) == "EXIF" {
				return bytes.TrimPrefix(body[i+8:i+8+n], []byte("Exif\x00\x00"))
			}
			i += 8 + n + n&1
		}
	}
	return nil
}
