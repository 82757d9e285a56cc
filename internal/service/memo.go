package service

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/siftd/sift/internal/invisible"
	"github.com/siftd/sift/stages"
)

// A cache hit whose Doc carries its snapshot's memo (stages.Doc.Memo) is
// answered from what an earlier hit on the same snapshot derived: the
// parts cleaned of invisible characters, and the /v1/fetch answer encoded
// for one shape of request. Both go when the snapshot leaves memory
// (replaced, expired, evicted, or the cache cleared), and each is used
// only for the inputs it was made from.

// memoStripped is the memo name of a snapshot's parts after StripInvisible.
const memoStripped = "service.stripped"

// strippedParts is what StripInvisible made of a Doc's parts (out), and
// the parts it was given (in).
type strippedParts struct {
	in, out docParts
}

// docParts are the parts of a Doc StripInvisible cleans.
type docParts struct {
	extraction *stages.Extraction
	digest     string
	context    []stages.ContextHit
	warnings   []string
}

func partsOf(doc *stages.Doc) docParts {
	return docParts{extraction: doc.Extraction, digest: doc.Digest, context: doc.Context, warnings: doc.Warnings}
}

// same reports whether two Docs' parts hold the same text. Parts restored
// from one memo share their strings, so comparing them costs little.
func (p docParts) same(q docParts) bool {
	if (p.extraction == nil) != (q.extraction == nil) || p.digest != q.digest ||
		!slices.Equal(p.context, q.context) || !slices.Equal(p.warnings, q.warnings) {
		return false
	}
	if p.extraction == nil {
		return true
	}
	a, b := p.extraction, q.extraction
	return a.Content == b.Content && a.Title == b.Title && a.Format == b.Format &&
		a.Extractor == b.Extractor && a.Tokens == b.Tokens && maps.Equal(a.Metadata, b.Metadata)
}

// stripMemo is StripInvisible for a Doc restored with a memo: the parts
// are cleaned once per snapshot, and each hit gets its own copy of the
// structs and slices a reader may change.
func stripMemo(doc *stages.Doc) {
	in := partsOf(doc)
	if v, ok := doc.Memo.Load(memoStripped); ok {
		if m := v.(*strippedParts); m.in.same(in) {
			m.out.apply(doc)
			return
		}
	}
	StripInvisible(doc)
	m := &strippedParts{in: in, out: partsOf(doc)}
	var size int64
	if ex := doc.Extraction; ex != nil && (in.extraction == nil || ex.Content != in.extraction.Content) {
		size = int64(len(ex.Content)) // the content changed: a copy of its own
	}
	doc.Memo.Store(memoStripped, m, size)
	m.out.apply(doc) // what the memo holds is never this hit's to change
}

// apply sets doc's parts to copies of p's.
func (p docParts) apply(doc *stages.Doc) {
	if p.extraction != nil {
		ex := *p.extraction
		ex.Metadata = maps.Clone(p.extraction.Metadata)
		doc.Extraction = &ex
	}
	doc.Digest = p.digest
	doc.Context = slices.Clone(p.context)
	doc.Warnings = slices.Clone(p.warnings)
}

// answerMemoName names the /v1/fetch answer to req for a snapshot's
// memo, or is "" when the answer may not be kept: focus with an embedder
// asks another service, whose failure would be kept with it. The name
// holds every field of the request and the server's instance, so an
// answer is only ever reused for an identical request to the same
// configuration; what the caller's class or workspace changes is in the
// snapshot's key already.
func (s *Service) answerMemoName(req *FetchRequest) string {
	if req.MaxTokens != nil && req.Question != "" && s.search.Embedder() != nil {
		return ""
	}
	shape, err := json.Marshal(req)
	if err != nil {
		return ""
	}
	return "service.v1fetch\x00" + s.instance + "\x00" + string(shape)
}

// encodeAnswer is the body the server writes for out (its writeJSON).
func encodeAnswer(out any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// memoRaw is the memo name of a snapshot's body cleaned of invisible
// characters.
const memoRaw = "service.raw"

// RawText is the Doc's body as text, cleaned of invisible characters, and
// how many it removed: made once per snapshot in memory.
func RawText(doc *stages.Doc) (string, int) {
	if doc.Memo == nil {
		return invisible.Strip(string(doc.Response.Body))
	}
	type stripped struct {
		text    string
		removed int
	}
	if v, ok := doc.Memo.Load(memoRaw); ok {
		r := v.(stripped)
		return r.text, r.removed
	}
	text, n := invisible.Strip(string(doc.Response.Body))
	doc.Memo.Store(memoRaw, stripped{text, n}, int64(len(text)))
	return text, n
}
