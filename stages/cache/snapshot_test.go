package cache

import (
	"bytes"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/siftd/sift/stages"
)

func sampleDoc() *stages.Doc {
	return &stages.Doc{
		Response: &stages.Response{FinalURL: "http://a.example/", Status: 200, Header: http.Header{"Content-Type": {"text/html"}},
			Body: []byte("<p>x</p>"), ContentType: "text/html", Tokens: 3, Hash: stages.BodyHash([]byte("<p>x</p>"))},
		Extraction: &stages.Extraction{Content: "x", Format: "markdown", Title: "t", Metadata: map[string]string{"lang": "en"}, Extractor: "html", Tokens: 1},
		Digest:     "about x",
		Context:    []stages.ContextHit{{Kind: "message", Peer: "p", Content: "c", CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
		Warnings:   []string{"w"},
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

// The restored body is a slice of the snapshot, never decoded; appending
// to it does not write into the snapshot.
func TestRestoredBodySharesSnapshot(t *testing.T) {
	data, err := snapshot(sampleDoc(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	before := bytes.Clone(data)
	var got stages.Doc
	if _, err := restore(&got, data); err != nil {
		t.Fatal(err)
	}
	if i := bytes.Index(data, got.Response.Body); i < 0 || &data[i] != &got.Response.Body[0] {
		t.Fatal("the body was copied out of the snapshot")
	}
	_ = append(got.Response.Body, "appended"...)
	if !bytes.Equal(data, before) {
		t.Fatal("appending to the restored body changed the snapshot")
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
		"no response":     mustSnapshot(t, &stages.Doc{}),
	} {
		var doc stages.Doc
		if _, err := restore(&doc, data); !errors.Is(err, errFormat) {
			t.Errorf("%s: err %v, want errFormat", name, err)
		}
	}
}

func mustSnapshot(t *testing.T, doc *stages.Doc) []byte {
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
	f.Fuzz(func(t *testing.T, data []byte) {
		var doc stages.Doc
		if _, err := restore(&doc, data); err == nil && doc.Response == nil {
			t.Fatal("restored without a response")
		}
	})
}
