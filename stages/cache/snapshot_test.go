package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/siftd/sift/internal/testkit/loadtest"
	"github.com/siftd/sift/stages"
)

func sampleDoc() *stages.Doc {
	return &stages.Doc{
		Response: &stages.Response{FinalURL: "http://a.example/", Status: 200, Header: http.Header{"Content-Type": {"text/html"}},
			Body: []byte("<p>x</p>"), ContentType: "text/html", Tokens: 3, Hash: stages.BodyHash([]byte("<p>x</p>"))},
		Extraction: &stages.Extraction{Content: "x", Format: "markdown", Title: "t", Metadata: map[string]string{"lang": "en"}, Extractor: "html", Tokens: 1,
			Links: []string{"https://a.example/next"}},
		Digest:   "about x",
		Context:  []stages.ContextHit{{Kind: "message", Peer: "p", Content: "c", CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
		Warnings: []string{"w"},
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	origin := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, doc := range map[string]*stages.Doc{
		"whole":       sampleDoc(),
		"after fetch": {Response: &stages.Response{FinalURL: "http://a.example/", Status: 200, Body: []byte("raw")}},
		"empty body":  {Response: &stages.Response{Status: 204}, Extraction: &stages.Extraction{}},
		"binary body": {Response: &stages.Response{Status: 200, Body: []byte{0, 0xff, '\n', 's'}}},
	} {
		data, err := snapshot(doc, origin)
		if err != nil {
			t.Fatal(err)
		}
		var got stages.Doc
		at, err := restore(&got, data)
		if err != nil || !at.Equal(origin) {
			t.Fatalf("%s: restore: %v at %v", name, err, at)
		}
		if !reflect.DeepEqual(got.Response, doc.Response) || !reflect.DeepEqual(got.Extraction, doc.Extraction) ||
			got.Digest != doc.Digest || !reflect.DeepEqual(got.Context, doc.Context) || !reflect.DeepEqual(got.Warnings, doc.Warnings) {
			t.Errorf("%s: restored %+v %+v, want %+v %+v", name, got.Response, got.Extraction, doc.Response, doc.Extraction)
		}
	}
}

// A snapshot of the previous layout (the body raw) is still read, its
// body a slice of the snapshot, never copied; appending to it does not
// write into the snapshot.
func TestRestoresPreviousLayout(t *testing.T) {
	doc := sampleDoc()
	data := snapshotV2(t, doc)
	before := bytes.Clone(data)
	var got stages.Doc
	if _, err := restore(&got, data); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Response, doc.Response) || !reflect.DeepEqual(got.Extraction, doc.Extraction) {
		t.Fatalf("restored %+v %+v, want %+v %+v", got.Response, got.Extraction, doc.Response, doc.Extraction)
	}
	if i := bytes.Index(data, got.Response.Body); i < 0 || &data[i] != &got.Response.Body[0] {
		t.Fatal("the body was copied out of the snapshot")
	}
	_ = append(got.Response.Body, "appended"...)
	if !bytes.Equal(data, before) {
		t.Fatal("appending to the restored body changed the snapshot")
	}
}

// snapshotV2 is doc in the previous layout, "sift-snap/2" with the body raw.
func snapshotV2(t testing.TB, doc *stages.Doc) []byte {
	t.Helper()
	data := mustSnapshot(t, doc)
	rest := data[len(magic):]
	head, rest, _ := section(rest)
	_, rest, _ = section(rest)
	out := append(bytes.Clone(magicV2), binary.AppendUvarint(nil, uint64(len(head)))...)
	out = append(out, head...)
	out = append(binary.AppendUvarint(out, uint64(len(doc.Response.Body))), doc.Response.Body...)
	return append(out, rest...)
}

// A page's body is stored compressed: the article page's snapshot is a
// fraction of its body, and the body comes back whole.
func TestSnapshotBodyCompressed(t *testing.T) {
	page := loadtest.Article()
	doc := &stages.Doc{Response: &stages.Response{Status: 200, Body: page}, Extraction: &stages.Extraction{Content: "story"}}
	data := mustSnapshot(t, doc)
	if len(data) > len(page)/2 {
		t.Fatalf("snapshot of %d bytes for a body of %d: want it compressed", len(data), len(page))
	}
	var got stages.Doc
	if _, err := restore(&got, data); err != nil || !bytes.Equal(got.Response.Body, page) {
		t.Fatalf("restore: %v; body equal: %v", err, bytes.Equal(got.Response.Body, page))
	}
}

func TestRestoreRefusesOtherData(t *testing.T) {
	good, _ := snapshot(sampleDoc(), time.Now())
	for name, data := range map[string][]byte{
		"empty":           nil,
		"old JSON format": []byte(`{"response":{"Status":200,"Body":"eA=="}}`),
		"truncated":       good[:len(good)-1],
		"trailing bytes":  append(bytes.Clone(good), 0),
		"huge length":     append(bytes.Clone(magic), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
		"body not S2":     withBody(t, []byte("plain, not compressed")),
		"body of 2 GiB":   withBody(t, binary.AppendUvarint(nil, 2<<30)),
		"no response":     mustSnapshot(t, &stages.Doc{}),
	} {
		var doc stages.Doc
		if _, err := restore(&doc, data); !errors.Is(err, errFormat) {
			t.Errorf("%s: err %v, want errFormat", name, err)
		}
	}
}

// withBody is the sample snapshot with its body section replaced by packed.
func withBody(t *testing.T, packed []byte) []byte {
	t.Helper()
	data := mustSnapshot(t, sampleDoc())
	head, rest, _ := section(data[len(magic):])
	_, content, _ := section(rest)
	out := append(bytes.Clone(magic), binary.AppendUvarint(nil, uint64(len(head)))...)
	out = append(out, head...)
	out = append(binary.AppendUvarint(out, uint64(len(packed))), packed...)
	return append(out, content...)
}

func mustSnapshot(t testing.TB, doc *stages.Doc) []byte {
	t.Helper()
	data, err := snapshot(doc, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// FuzzRestore: whatever a cache row holds, restore returns an error or a
// Doc with a response, and never panics.
func FuzzRestore(f *testing.F) {
	good, _ := snapshot(sampleDoc(), time.Now())
	f.Add(good)
	f.Add([]byte(`{"response":{}}`))
	f.Add(append(bytes.Clone(magic), 2, '{', '}', 0, 0))
	f.Add(append(bytes.Clone(magicV2), 2, '{', '}', 0, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		var doc stages.Doc
		if _, err := restore(&doc, data); err == nil && doc.Response == nil {
			t.Fatal("restored without a response")
		}
	})
}

// A snapshot decoded in memory is counted with its decompressed body; a
// body of the previous layout is a slice of the snapshot, already counted.
func TestRestoredSizeCountsTheBody(t *testing.T) {
	doc := &stages.Doc{Response: &stages.Response{Status: 200, Body: loadtest.Article()}, Extraction: &stages.Extraction{Content: "story"}}
	for name, tc := range map[string]struct {
		data []byte
		want int64
	}{
		"compressed":      {mustSnapshot(t, doc), int64(len(doc.Response.Body) + len("story"))},
		"previous layout": {snapshotV2(t, doc), int64(len("story"))},
	} {
		var got stages.Doc
		if _, err := restore(&got, tc.data); err != nil {
			t.Fatal(err)
		}
		if size := restoredSize(&got, tc.data); size != tc.want {
			t.Errorf("%s: %d bytes, want %d", name, size, tc.want)
		}
	}
}
