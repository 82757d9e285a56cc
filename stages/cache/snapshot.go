package cache

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/klauspost/compress/s2"

	"github.com/siftd/sift/stages"
)

// A snapshot is binary so that a hit pays only for what the answer needs:
//
//	magic "sift-snap/3\n"
//	uvarint length, meta: JSON of everything but the two large parts
//	uvarint length, the fetched body, S2-compressed (a block)
//	uvarint length, the extracted content, raw
//
// The body is the largest part and, as fetched, mostly markup: S2 keeps
// the real pages of tokens/testdata in 3.6 times fewer bytes, at 0.18 ms
// a 143 KB page (BenchmarkSnapshotPages), so a budget holds that many more
// pages, a put writes that many fewer database pages, and a hit read from
// the database reads them (its 0.09 ms of decompressing is less than the
// read saves). The content stays raw:
// every hit reads it. A snapshot is decoded once while it is in memory
// (see lookup), so hits from memory do not decompress.
//
// Snapshots of the previous layout ("sift-snap/2\n", the body raw) are
// still read. Earlier ones (JSON with the body in base64) are keyed under
// another key version and never read.
var (
	magic   = []byte("sift-snap/3\n")
	magicV2 = []byte("sift-snap/2\n")
)

// maxBody bounds the body a snapshot may decompress to, whatever its
// S2 header claims: far above any fetch stage's max_body.
const maxBody = 1 << 30

// meta is a snapshot's small parts.
type meta struct {
	// Origin is when the first part of the snapshot came from the origin:
	// a snapshot stored after restoring an earlier one is as old as that.
	Origin     time.Time           `json:"origin"`
	Response   *stages.Response    `json:"response"`
	Extraction *stages.Extraction  `json:"extraction,omitempty"`
	Digest     string              `json:"digest,omitempty"`
	Context    []stages.ContextHit `json:"context,omitempty"`
	Warnings   []string            `json:"warnings,omitempty"`
}

// storedWarnings are the warnings a snapshot keeps: all but those of a
// cache read or write the store skipped, which were true of the request
// that stored it and not of the hits that will read it.
func storedWarnings(ws []string) []string {
	var kept []string
	for _, w := range ws {
		if !isSkipWarning(w) {
			kept = append(kept, w)
		}
	}
	return kept
}

// errFormat marks data that is not a snapshot this version can read.
var errFormat = errors.New("not a snapshot")

// snapshot encodes what the stages up to the checkpoint produced; origin
// is when it came from the origin.
func snapshot(doc *stages.Doc, origin time.Time) ([]byte, error) {
	m := meta{Origin: origin.UTC(), Digest: doc.Digest, Context: doc.Context, Warnings: storedWarnings(doc.Warnings)}
	var body []byte
	if doc.Response != nil {
		resp := *doc.Response
		body, resp.Body = resp.Body, nil
		m.Response = &resp
	}
	var content string
	if doc.Extraction != nil {
		ex := *doc.Extraction
		content, ex.Content = ex.Content, ""
		m.Extraction = &ex
	}
	head, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	packed := s2.Encode(nil, body)
	out := make([]byte, 0, len(magic)+3*binary.MaxVarintLen64+len(head)+len(packed)+len(content))
	out = append(out, magic...)
	out = binary.AppendUvarint(out, uint64(len(head)))
	out = append(out, head...)
	out = binary.AppendUvarint(out, uint64(len(packed)))
	out = append(out, packed...)
	out = binary.AppendUvarint(out, uint64(len(content)))
	out = append(out, content...)
	return out, nil
}

// restore fills doc from a snapshot and returns when its content came
// from the origin. A body of the previous layout shares data's memory,
// which must not change afterwards (the cache's snapshots never do).
func restore(doc *stages.Doc, data []byte) (time.Time, error) {
	rest, packed := bytes.CutPrefix(data, magic)
	if !packed {
		var ok bool
		if rest, ok = bytes.CutPrefix(data, magicV2); !ok {
			return time.Time{}, errFormat
		}
	}
	head, rest, err := section(rest)
	if err != nil {
		return time.Time{}, err
	}
	body, rest, err := section(rest)
	if err != nil {
		return time.Time{}, err
	}
	content, rest, err := section(rest)
	if err != nil {
		return time.Time{}, err
	}
	if len(rest) != 0 {
		return time.Time{}, fmt.Errorf("%w: %d bytes after the last part", errFormat, len(rest))
	}
	var m meta
	if err := json.Unmarshal(head, &m); err != nil {
		return time.Time{}, fmt.Errorf("%w: %w", errFormat, err)
	}
	if m.Response == nil {
		return time.Time{}, fmt.Errorf("%w: no response", errFormat)
	}
	if packed {
		if body, err = unpack(body); err != nil {
			return time.Time{}, err
		}
	}
	if len(body) > 0 {
		m.Response.Body = body
	}
	if m.Extraction != nil {
		m.Extraction.Content = string(content)
	} else if len(content) > 0 {
		return time.Time{}, fmt.Errorf("%w: content without an extraction", errFormat)
	}
	doc.Response, doc.Extraction, doc.Digest, doc.Context = m.Response, m.Extraction, m.Digest, m.Context
	doc.Warnings = append(doc.Warnings, m.Warnings...)
	return m.Origin, nil
}

// unpack decompresses a snapshot's body.
func unpack(packed []byte) ([]byte, error) {
	n, err := s2.DecodedLen(packed)
	if err != nil {
		return nil, fmt.Errorf("%w: body: %w", errFormat, err)
	}
	if n > maxBody {
		return nil, fmt.Errorf("%w: body of %d bytes", errFormat, n)
	}
	body, err := s2.Decode(make([]byte, n), packed)
	if err != nil {
		return nil, fmt.Errorf("%w: body: %w", errFormat, err)
	}
	return body, nil
}

// section splits a length-prefixed part off data; the part's capacity
// ends with it, so appending to it never writes into what follows.
func section(data []byte) (part, rest []byte, err error) {
	n, used := binary.Uvarint(data)
	if used <= 0 || n > uint64(len(data)-used) {
		return nil, nil, fmt.Errorf("%w: truncated", errFormat)
	}
	end := used + int(n)
	return data[used:end:end], data[end:], nil
}
