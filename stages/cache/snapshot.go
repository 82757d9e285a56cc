package cache

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/siftd/sift/stages"
)

// A snapshot is binary so that a hit pays only for what the answer needs:
//
//	magic "sift-snap/2\n"
//	uvarint length, meta: JSON of everything but the two large parts
//	uvarint length, the fetched body, raw
//	uvarint length, the extracted content, raw
//
// The body, usually the largest part and needed only in raw mode or by a
// stage after the checkpoint, is not decoded at all: the restored Doc's
// Response.Body is a slice of the snapshot. Earlier snapshots (JSON with
// the body in base64) are keyed under another key version and never read.
var magic = []byte("sift-snap/2\n")

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

// errFormat marks data that is not a snapshot this version can read.
var errFormat = errors.New("not a snapshot")

// snapshot encodes what the stages up to the checkpoint produced; origin
// is when it came from the origin.
func snapshot(doc *stages.Doc, origin time.Time) ([]byte, error) {
	m := meta{Origin: origin.UTC(), Digest: doc.Digest, Context: doc.Context, Warnings: doc.Warnings}
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
	out := make([]byte, 0, len(magic)+3*binary.MaxVarintLen64+len(head)+len(body)+len(content))
	out = append(out, magic...)
	out = binary.AppendUvarint(out, uint64(len(head)))
	out = append(out, head...)
	out = binary.AppendUvarint(out, uint64(len(body)))
	out = append(out, body...)
	out = binary.AppendUvarint(out, uint64(len(content)))
	out = append(out, content...)
	return out, nil
}

// restore fills doc from a snapshot and returns when its content came
// from the origin. The restored body shares data's memory, which must
// not change afterwards (the cache's snapshots never do).
func restore(doc *stages.Doc, data []byte) (time.Time, error) {
	rest, ok := bytes.CutPrefix(data, magic)
	if !ok {
		return time.Time{}, errFormat
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
