package epub

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

// book makes an EPUB of the given entries, the mimetype first.
func book(t testing.TB, entries ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	all := append([]string{"mimetype", mediaType}, entries...)
	for i := 0; i+1 < len(all); i += 2 {
		f, err := w.Create(all[i])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(all[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const container = `<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf"/></rootfiles></container>`

func opfWith(spine string) string {
	return `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></metadata>
<manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="missing" href="gone.xhtml" media-type="application/xhtml+xml"/></manifest><spine>` + spine + `</spine></package>`
}

func docClass(err error) string {
	var de *sdk.DocError
	if errors.As(err, &de) {
		return de.Class
	}
	return ""
}

func TestHostileBooks(t *testing.T) {
	deep := strings.Repeat("<div>", 20_000) + "deep text" + strings.Repeat("</div>", 20_000)
	for _, tc := range []struct {
		name          string
		body          []byte
		class, reason string
		content       string
	}{
		{name: "no container", body: book(t, "OPS/book.opf", opfWith("")), class: sdk.ClassInvalid, reason: "not an EPUB: no META-INF/container.xml"},
		{name: "a rootfile the book lacks", body: book(t, "META-INF/container.xml", strings.Replace(container, "OPS/book.opf", "OPS/none.opf", 1)),
			class: sdk.ClassInvalid, reason: `names "OPS/none.opf", which the book does not hold`},
		{name: "an empty spine", body: book(t, "META-INF/container.xml", container, "OPS/book.opf", opfWith("")), class: sdk.ClassInvalid, reason: "empty spine"},
		{name: "entities in the package document", body: book(t, "META-INF/container.xml", container, "OPS/book.opf",
			`<?xml version="1.0"?><!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]><package><metadata><title>&x;</title></metadata></package>`),
			class: sdk.ClassInvalid, reason: "OPS/book.opf: malformed XML"},
		{name: "a spine item the book lacks is passed over", body: book(t, "META-INF/container.xml", container, "OPS/book.opf",
			opfWith(`<itemref idref="missing"/><itemref idref="c1"/>`), "OPS/c1.xhtml", "<html><body><h1>One</h1><p>text</p></body></html>"),
			content: "# One\n\ntext\n"},
		{name: "nesting without end is read flat", body: book(t, "META-INF/container.xml", container, "OPS/book.opf",
			opfWith(`<itemref idref="c1"/>`), "OPS/c1.xhtml", "<html><body>"+deep+"</body></html>"), content: "deep text\n"},
		{name: "scripts and styles are no text", body: book(t, "META-INF/container.xml", container, "OPS/book.opf",
			opfWith(`<itemref idref="c1"/>`), "OPS/c1.xhtml", "<html><head><title>x</title><style>p{}</style></head><body><script>alert(1)</script><p>kept</p></body></html>"),
			content: "kept\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: tc.body, ContentType: mediaType})
			if tc.class != "" {
				if docClass(err) != tc.class || !strings.Contains(err.Error(), tc.reason) {
					t.Fatalf("err %v, want %s saying %q", err, tc.class, tc.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tc.content {
				t.Fatalf("content %q, want %q", res.Content, tc.content)
			}
		})
	}
}

// FuzzExtract: no book, however damaged, makes the reader panic or pass
// its output cap.
func FuzzExtract(f *testing.F) {
	for _, file := range []string{"book.epub", "book2.epub"} {
		b, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(book(f, "META-INF/container.xml", container, "OPS/book.opf", opfWith(`<itemref idref="c1"/>`), "OPS/c1.xhtml", "<p><b><i>x</p></b><table><tr><td>y"))
	f.Fuzz(func(t *testing.T, body []byte) {
		res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: mediaType, MaxOutputBytes: 64 << 10})
		if err != nil {
			if docClass(err) == "" {
				t.Fatalf("an error that is no document's class: %v", err)
			}
			return
		}
		if len(res.Content) > 64<<10+1 {
			t.Fatalf("content of %d bytes past the cap", len(res.Content))
		}
	})
}
