package zipdoc

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// build makes a zip of the named entries; a func value streams its data.
func build(t testing.TB, entries ...any) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := 0; i < len(entries); i += 2 {
		f, err := w.Create(entries[i].(string))
		if err != nil {
			t.Fatal(err)
		}
		switch data := entries[i+1].(type) {
		case string:
			_, err = io.WriteString(f, data)
		case func(io.Writer) error:
			err = data(f)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zeros(n int64) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.CopyN(w, zeroReader{}, n)
		return err
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func docClass(err error) string {
	var de *sdk.DocError
	if errors.As(err, &de) {
		return de.Class
	}
	return ""
}

// Each bound stops a hostile package with the class and the reason an
// agent reads: a bomb (by ratio, by entry, in all), too many entries, a
// damaged archive.
func TestBounds(t *testing.T) {
	small := Limits{MaxEntries: 10, MaxEntryBytes: 4 << 20, MaxTotalBytes: 6 << 20, MaxRatio: 100}
	for _, tc := range []struct {
		name   string
		body   []byte
		limits Limits
		read   []string
		class  string
		reason string
	}{
		{name: "a zip bomb stops at the ratio", body: build(t, "bomb.xml", zeros(64<<20)), limits: DefaultLimits,
			read: []string{"bomb.xml"}, class: sdk.ClassTooLarge, reason: "zip entry bomb.xml inflates past"},
		{name: "an entry past its own bound", body: build(t, "big.xml", zeros(5<<20)), limits: Limits{MaxEntries: 10, MaxEntryBytes: 4 << 20, MaxTotalBytes: 64 << 20},
			read: []string{"big.xml"}, class: sdk.ClassTooLarge, reason: "zip entry big.xml declares 5242880 bytes"},
		{name: "entries past the bound in all", body: build(t, "a.xml", zeros(3<<20), "b.xml", zeros(3<<20), "c.xml", zeros(3<<20)), limits: Limits{MaxEntries: 10, MaxEntryBytes: 4 << 20, MaxTotalBytes: 6 << 20},
			read: []string{"a.xml", "b.xml", "c.xml"}, class: sdk.ClassTooLarge, reason: "the zip package inflates past 6291456 bytes"},
		{name: "an entry exactly at its bound is read", body: build(t, "a.xml", zeros(4<<20)), limits: Limits{MaxEntries: 10, MaxEntryBytes: 4 << 20, MaxTotalBytes: 6 << 20},
			read: []string{"a.xml"}},
		{name: "too many entries", body: build(t, manyEntries(11)...), limits: small, class: sdk.ClassTooLarge, reason: "holds 11 entries, more than the 10 read"},
		{name: "not a zip", body: []byte("PK\x03\x04 and then nothing"), limits: small, class: sdk.ClassInvalid, reason: "not a readable zip package"},
		{name: "cut short", body: build(t, "a.xml", "<a/>")[:30], limits: small, class: sdk.ClassInvalid, reason: "not a readable zip package"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := readAll(tc.body, tc.limits, tc.read)
			if tc.class == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if docClass(err) != tc.class || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("err %v, want %s saying %q", err, tc.class, tc.reason)
			}
		})
	}
}

func readAll(body []byte, lim Limits, names []string) error {
	a, err := Open(body, lim)
	if err != nil {
		return err
	}
	for _, n := range names {
		rc, err := a.Open(n)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func manyEntries(n int) []any {
	var out []any
	for i := range n {
		out = append(out, "e"+strings.Repeat("x", i), "")
	}
	return out
}

// encoding/xml never expands an entity a document declares and never
// resolves an external one: a billion laughs and a reference to a local
// file are each a malformed document, read no further, and nothing of the
// file is in any token.
func TestEntitiesNeverExpanded(t *testing.T) {
	laughs := `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<w:document><w:t>&lol3;</w:t></w:document>`
	external := `<?xml version="1.0"?>
<!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<d><t>&xxe;</t></d>`
	for name, doc := range map[string]string{"billion laughs": laughs, "external entity": external} {
		t.Run(name, func(t *testing.T) {
			d := NewDecoder(strings.NewReader(doc))
			var text strings.Builder
			var err error
			for {
				var tok xml.Token
				tok, err = d.Token()
				if err != nil {
					break
				}
				if s, ok := tokText(tok); ok {
					text.WriteString(s)
				}
			}
			if errors.Is(err, io.EOF) || !strings.Contains(err.Error(), "invalid character entity &") {
				t.Fatalf("err %v, want the entity refused", err)
			}
			if strings.Contains(text.String(), "lol") || strings.Contains(text.String(), "root:") {
				t.Fatalf("an entity was expanded: %q", text.String())
			}
			if got := XMLError("word/document.xml", err); docClass(got) != sdk.ClassInvalid || !strings.Contains(got.Error(), "word/document.xml: malformed XML") {
				t.Fatalf("XMLError = %v", got)
			}
		})
	}
}

// A document in an encoding other than UTF-8 is decoded by its label; an
// unknown label is an error naming it.
func TestCharsets(t *testing.T) {
	latin := append([]byte(`<?xml version="1.0" encoding="ISO-8859-1"?><t>caf`), 0xe9, '<', '/', 't', '>')
	d := NewDecoder(bytes.NewReader(latin))
	var got string
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		if s, ok := tokText(tok); ok {
			got += s
		}
	}
	if got != "café" {
		t.Fatalf("got %q, want café", got)
	}
	d = NewDecoder(strings.NewReader(`<?xml version="1.0" encoding="x-no-such"?><t/>`))
	if _, err := d.Token(); err == nil || !strings.Contains(err.Error(), `"x-no-such"`) {
		t.Fatalf("err %v, want the label named", err)
	}
}

func TestResolve(t *testing.T) {
	for _, tc := range [][3]string{
		{"word", "media/a.png", "word/media/a.png"},
		{"ppt/slides", "../media/a.png", "ppt/media/a.png"},
		{"ppt/slides", "/ppt/x.xml", "ppt/x.xml"},
		{"", "../../../etc/passwd", "etc/passwd"},
	} {
		if got := Resolve(tc[0], tc[1]); got != tc[2] {
			t.Errorf("Resolve(%q, %q) = %q, want %q", tc[0], tc[1], got, tc[2])
		}
	}
}

// FuzzOpen: no archive makes Open or a read panic or pass the bounds.
func FuzzOpen(f *testing.F) {
	f.Add(build(f, "[Content_Types].xml", "<Types/>", "word/document.xml", "<w:document/>"))
	f.Add(build(f, "mimetype", "application/epub+zip"))
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00\x2e\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	lim := Limits{MaxEntries: 100, MaxEntryBytes: 1 << 20, MaxTotalBytes: 2 << 20, MaxRatio: 100}
	f.Fuzz(func(t *testing.T, body []byte) {
		a, err := Open(body, lim)
		if err != nil {
			return
		}
		var total int64
		for _, n := range a.Names() {
			rc, err := a.Open(strings.TrimPrefix(n, "/"))
			if err != nil {
				continue
			}
			m, _ := io.Copy(io.Discard, rc)
			rc.Close()
			if total += m; total > lim.MaxTotalBytes {
				t.Fatalf("read %d bytes, past the bound of %d", total, lim.MaxTotalBytes)
			}
		}
	})
}
