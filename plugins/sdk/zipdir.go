package sdk

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"io"
)

// A zip's records, by their signatures (APPNOTE.TXT, 4.3).
const (
	sigLocal       = 0x04034b50
	sigCentral     = 0x02014b50
	sigEnd         = 0x06054b50
	sigEnd64       = 0x06064b50
	sigEnd64Locate = 0x07064b50
	endLen         = 22
	centralLen     = 46
	localLen       = 30
	maxZipComment  = 1<<16 - 1
)

// maxScanEntries bounds the central directory records a container scan
// reads: a document's parts are named near the start of it, and a
// directory of millions of records must not cost the host more.
const maxScanEntries = 1 << 16

// maxMimetypeBytes bounds the mimetype entry read: ODF and EPUB name a
// media type there, a few dozen bytes.
const maxMimetypeBytes = 256

// zipEntry is what a container scan keeps of one central directory record.
type zipEntry struct {
	method      uint16
	compressed  uint64
	localOffset uint64
}

// zipDirectory walks the central directory of the zip archive body and
// calls visit with each entry's name (a slice of body, valid during the
// call) until visit returns false; it reports whether body holds a
// central directory at all. It reads the directory in place, with no
// allocation per entry, so a hostile archive of many entries costs the
// host a scan of bytes it already holds.
func zipDirectory(body []byte, visit func(name []byte, e zipEntry) bool) bool {
	dir, count, base, ok := centralDirectory(body)
	if !ok {
		return false
	}
	for i := uint64(0); i < count && i < maxScanEntries; i++ {
		if len(dir) < centralLen || binary.LittleEndian.Uint32(dir) != sigCentral {
			break
		}
		nameLen := int(binary.LittleEndian.Uint16(dir[28:]))
		extraLen := int(binary.LittleEndian.Uint16(dir[30:]))
		commentLen := int(binary.LittleEndian.Uint16(dir[32:]))
		if len(dir) < centralLen+nameLen+extraLen+commentLen {
			break
		}
		e := zipEntry{
			method:      binary.LittleEndian.Uint16(dir[10:]),
			compressed:  uint64(binary.LittleEndian.Uint32(dir[20:])),
			localOffset: base + uint64(binary.LittleEndian.Uint32(dir[42:])),
		}
		if !visit(dir[centralLen:centralLen+nameLen], e) {
			break
		}
		dir = dir[centralLen+nameLen+extraLen+commentLen:]
	}
	return true
}

// centralDirectory finds the central directory from the end record (or
// its zip64 form) and returns its bytes, the entry count it declares, and
// the base to add to the offsets records declare.
func centralDirectory(body []byte) (dir []byte, count, base uint64, ok bool) {
	end := endRecord(body)
	if end < 0 {
		return nil, 0, 0, false
	}
	rec := body[end:]
	count = uint64(binary.LittleEndian.Uint16(rec[10:]))
	size := uint64(binary.LittleEndian.Uint32(rec[12:]))
	offset := uint64(binary.LittleEndian.Uint32(rec[16:]))
	dirEnd := uint64(end)
	if count == 0xffff || size == 0xffffffff || offset == 0xffffffff {
		if c, s, o, at, ok := end64(body, end); ok {
			count, size, offset, dirEnd = c, s, o, at
		}
	}
	// The directory ends where the end record starts, as Go's reader
	// takes it: data before the archive (a self-extractor's stub) shifts
	// the offsets the records declare by as much.
	if size > dirEnd {
		return nil, 0, 0, false
	}
	start := dirEnd - size
	if offset < start {
		base = start - offset
	}
	return body[start:dirEnd], count, base, true
}

// endRecord returns the offset of the end of central directory record, or
// -1: it is the last 22 bytes, unless a comment of up to 64 KiB follows.
func endRecord(body []byte) int {
	if len(body) < endLen {
		return -1
	}
	from := max(0, len(body)-endLen-maxZipComment)
	sig := []byte{0x50, 0x4b, 0x05, 0x06}
	for i := len(body) - endLen; i >= from; {
		j := bytes.LastIndex(body[from:i+4], sig)
		if j < 0 {
			return -1
		}
		j += from
		commentLen := int(binary.LittleEndian.Uint16(body[j+20:]))
		if j+endLen+commentLen <= len(body) {
			return j
		}
		i = j - 1
	}
	return -1
}

// end64 reads the zip64 end record that the locator before the end record
// points at: its entry count, directory size and offset, and where it is.
func end64(body []byte, end int) (count, size, offset, at uint64, ok bool) {
	loc := end - 20
	if loc < 0 || binary.LittleEndian.Uint32(body[loc:]) != sigEnd64Locate {
		return 0, 0, 0, 0, false
	}
	at = binary.LittleEndian.Uint64(body[loc+8:])
	if at > uint64(loc) || uint64(loc)-at < 56 || binary.LittleEndian.Uint32(body[at:]) != sigEnd64 {
		return 0, 0, 0, 0, false
	}
	rec := body[at:]
	return binary.LittleEndian.Uint64(rec[32:]), binary.LittleEndian.Uint64(rec[40:]), binary.LittleEndian.Uint64(rec[48:]), at, true
}

// entryPrefix returns the first bytes (at most limit) of the data of
// entry e, stored or deflated; ok is false when they cannot be read.
func entryPrefix(body []byte, e zipEntry, limit int) ([]byte, bool) {
	if e.localOffset > uint64(len(body)) || uint64(len(body))-e.localOffset < localLen {
		return nil, false
	}
	local := body[e.localOffset:]
	if binary.LittleEndian.Uint32(local) != sigLocal {
		return nil, false
	}
	start := localLen + int(binary.LittleEndian.Uint16(local[26:])) + int(binary.LittleEndian.Uint16(local[28:]))
	if start > len(local) {
		return nil, false
	}
	data := local[start:]
	if e.compressed < uint64(len(data)) {
		data = data[:e.compressed]
	}
	switch e.method {
	case 0:
		return data[:min(len(data), limit)], true
	case 8:
		out, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(data)), int64(limit)))
		if err != nil && len(out) == 0 {
			return nil, false
		}
		return out, true
	}
	return nil, false
}
