package office

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siftd/sift/plugins/sdk"
)

// repack returns testdata/file with entries replaced or added (a func
// value streams its data), in the original order, new ones last.
func repack(t testing.TB, file string, entries map[string]any) []byte {
	t.Helper()
	src, err := zip.OpenReader(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	write := func(name string, data any) {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		switch d := data.(type) {
		case string:
			_, err = io.WriteString(f, d)
		case func(io.Writer) error:
			err = d(f)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	done := map[string]bool{}
	for _, f := range src.File {
		if data, ok := entries[f.Name]; ok {
			write(f.Name, data)
			done[f.Name] = true
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		write(f.Name, string(b))
	}
	for name, data := range entries {
		if !done[name] {
			write(name, data)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func repeated(prefix, unit, suffix string, n int) func(io.Writer) error {
	return func(w io.Writer) error {
		if _, err := io.WriteString(w, prefix); err != nil {
			return err
		}
		for range n {
			if _, err := io.WriteString(w, unit); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, suffix)
		return err
	}
}

const wordNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`

func classOf(err error) string {
	var de *sdk.DocError
	if errors.As(err, &de) {
		return de.Class
	}
	return ""
}

// Hostile packages are each answered within a bound, with the class and
// reason an agent reads: never a crash, a hang or memory without end.
func TestHostileDocuments(t *testing.T) {
	many := map[string]any{}
	for i := range 10_001 {
		many[fmt.Sprintf("junk/%05d", i)] = ""
	}
	xls, err := os.ReadFile(filepath.Join("testdata", "lo/book.xls"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, mediaType string
		body            []byte
		class, reason   string
	}{
		{"a zip bomb as the document part", typeDOCX,
			repack(t, "report.docx", map[string]any{"word/document.xml": repeated("<w:document "+wordNS+"><w:body><w:p><w:r><w:t>", strings.Repeat("a", 1<<16), "</w:t></w:r></w:p></w:body></w:document>", 1<<10)}),
			sdk.ClassTooLarge, "zip entry word/document.xml inflates past"},
		{"a bomb that declares its size", typeDOCX,
			repack(t, "report.docx", map[string]any{"word/document.xml": repeated("<w:document "+wordNS+">", strings.Repeat("a", 1<<16), "</w:document>", 8<<10)}),
			sdk.ClassTooLarge, "zip entry word/document.xml declares 536871"},
		{"tens of thousands of entries", typeDOCX, repack(t, "report.docx", many), sdk.ClassTooLarge, "more than the 10000 read"},
		{"a billion laughs", typeDOCX, repack(t, "report.docx", map[string]any{"word/document.xml": `<?xml version="1.0"?>
<!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
<w:document ` + wordNS + `><w:body><w:p><w:r><w:t>&c;</w:t></w:r></w:p></w:body></w:document>`}),
			sdk.ClassInvalid, "word/document.xml: malformed XML: XML syntax error on line 3: invalid character entity &c;"},
		{"an external entity", typeXLSX, repack(t, "lo/book.xlsx", map[string]any{"xl/sharedStrings.xml": `<?xml version="1.0"?>
<!DOCTYPE sst [<!ENTITY x SYSTEM "file:///etc/passwd">]><sst><si><t>&x;</t></si></sst>`}),
			sdk.ClassInvalid, "xl/sharedStrings.xml: malformed XML"},
		{"nesting without end", typeDOCX, repack(t, "report.docx", map[string]any{"word/document.xml": repeated("<w:document "+wordNS+"><w:body>", "<w:sdt>", "", 100_000)}),
			sdk.ClassInvalid, "nested deeper than 256 elements"},
		{"a damaged archive", typeDOCX, func() []byte { b, _ := os.ReadFile("testdata/report.docx"); return b[:len(b)-100] }(), sdk.ClassInvalid, "not a readable zip package"},
		{"not a zip at all", typePPTX, []byte("<html>not a presentation</html>"), sdk.ClassInvalid, "not a readable zip package: zip: not a valid zip file"},
		{"a package without its main part", typeXLSX, repack(t, "lo/book.xlsx", nil)[:0:0], sdk.ClassInvalid, "not a readable zip package"},
		{"an Excel 97-2003 workbook", typeXLS, xls, sdk.ClassUnsupported, "Excel 97-2003 workbook (.xls, BIFF) is not read"},
		{"an Excel 97-2003 workbook served as Word's", typeDOC, xls, sdk.ClassUnsupported, "Excel 97-2003"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			start := time.Now()
			_, err := New().Extract(ctx, &sdk.ExtractRequest{Body: tc.body, ContentType: tc.mediaType})
			if classOf(err) != tc.class || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("err %v, want %s saying %q", err, tc.class, tc.reason)
			}
			t.Logf("answered %s in %v", classOf(err), time.Since(start).Round(time.Millisecond))
		})
	}
}

// A sheet past max_rows is cut with a warning naming the sheet and the
// bound; one past the output cap with a warning naming where it cut.
func TestHugeSheetCut(t *testing.T) {
	var rows strings.Builder
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>row %d</t></is></c><c r="B%d"><v>%d</v></c></row>`, i, i, i, i, i)
	}
	sheet := `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` + rows.String() + `</sheetData></worksheet>`
	body := repack(t, "lo/book.xlsx", map[string]any{"xl/worksheets/sheet1.xml": sheet})
	e := New().(*Extractor)
	e.cfg.MaxRows = 100
	res, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: typeXLSX})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), `sheet "Deliveries" cut at 100 rows (max_rows)`) || strings.Contains(res.Content, "row 101") || !strings.Contains(res.Content, "| row 100 | 100 |") {
		t.Fatalf("warnings %q, content %.300q", res.Warnings, res.Content)
	}
	res, err = New().Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: typeXLSX, MaxOutputBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) > 4096 || !strings.Contains(strings.Join(res.Warnings, "\n"), `output cut at`) || !strings.Contains(strings.Join(res.Warnings, "\n"), `in sheet "Deliveries"`) {
		t.Fatalf("%d bytes, warnings %q", len(res.Content), res.Warnings)
	}
}

// A relationship's target outside the package (an external image, a
// path climbing out of it) is never read: only the package's own entries
// are, and an external hyperlink is only written.
func TestExternalTargetsNeverRead(t *testing.T) {
	rels := `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="../../../../../etc/passwd"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="file:///etc/passwd" TargetMode="External"/>
<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="http://127.0.0.1:1/chart.xml" TargetMode="External"/>
</Relationships>`
	doc := `<w:document ` + wordNS + ` xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart">
<w:body><w:p><w:hyperlink r:id="rId2"><w:r><w:t>local file</w:t></w:r></w:hyperlink><w:r><w:drawing><c:chart r:id="rId3"/></w:drawing></w:r></w:p></w:body></w:document>`
	body := repack(t, "report.docx", map[string]any{"word/_rels/document.xml.rels": rels, "word/document.xml": doc})
	res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: typeDOCX})
	if err != nil {
		t.Fatal(err)
	}
	if res.Content != "local file\n" || len(res.Links) != 0 {
		t.Fatalf("content %q, links %q", res.Content, res.Links)
	}
}

// FuzzExtract: no package, however damaged, makes a reader panic or
// exceed its output cap. The seeds are the converters' documents.
func FuzzExtract(f *testing.F) {
	types := []string{typeDOCX, typeXLSX, typePPTX, typeODT, typeODS, typeODP}
	for i, g := range goldens {
		b, err := os.ReadFile(filepath.Join("testdata", g.file))
		if err != nil {
			f.Fatal(err)
		}
		for j, typ := range types {
			if typ == g.mediaType {
				f.Add(b, uint8(j))
			}
		}
		_ = i
	}
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: types[int(which)%len(types)], MaxOutputBytes: 64 << 10})
		if err != nil {
			if classOf(err) == "" {
				t.Fatalf("an error that is no document's class: %v", err)
			}
			return
		}
		if len(res.Content) > 64<<10+1 {
			t.Fatalf("content of %d bytes past the cap", len(res.Content))
		}
	})
}
