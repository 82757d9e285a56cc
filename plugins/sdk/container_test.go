package sdk_test

import (
	"archive/zip"
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/siftd/sift/plugins/sdk"
)

const (
	docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
	xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	odtType  = "application/vnd.oasis.opendocument.text"
	epubType = "application/epub+zip"
)

var officeRules = []sdk.ContainerRule{
	{MediaType: docxType, Extensions: []string{"docx"}, ZipEntries: []string{"[Content_Types].xml", "word/document.xml"}},
	{MediaType: xlsxType, Extensions: []string{"xlsx"}, ZipEntries: []string{"[Content_Types].xml", "xl/workbook.xml"}},
	{MediaType: odtType, Extensions: []string{"odt"}, ZipMimetype: odtType},
	{MediaType: epubType, Extensions: []string{"epub"}, ZipMimetype: epubType},
	{MediaType: "application/pdf", Extensions: []string{"pdf"}, Magic: "%PDF-"},
}

// entry is one file of a zip a test builds.
type entry struct {
	name, data string
	stored     bool
}

func makeZip(t testing.TB, comment string, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.stored {
			h.Method = zip.Store
		}
		f, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(e.data)); err != nil {
			t.Fatal(err)
		}
	}
	if comment != "" {
		if err := w.SetComment(comment); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestContainerRulesMatch(t *testing.T) {
	set, err := sdk.CompileContainerRules(officeRules)
	if err != nil {
		t.Fatal(err)
	}
	docx := makeZip(t, "",
		entry{name: "docProps/thumbnail.jpeg", data: strings.Repeat("\xff\xd8 jpeg ", 2000)},
		entry{name: "[Content_Types].xml", data: "<Types/>"}, entry{name: "word/document.xml", data: "<w:document/>"})
	tests := []struct {
		name string
		body []byte
		want []int
	}{
		{"docx whose first entry is a thumbnail", docx, []int{0}},
		{"docx after a stub, with a comment", append([]byte("MZ self-extractor stub"), makeZip(t, "a comment",
			entry{name: "[Content_Types].xml"}, entry{name: "word/document.xml"})...), []int{0}},
		{"one of the two entries only", makeZip(t, "", entry{name: "word/document.xml"}), nil},
		{"xlsx", makeZip(t, "", entry{name: "xl/workbook.xml"}, entry{name: "[Content_Types].xml"}), []int{1}},
		{"odt, mimetype stored first", makeZip(t, "", entry{name: "mimetype", data: odtType, stored: true}, entry{name: "content.xml"}), []int{2}},
		{"epub, mimetype deflated and last", makeZip(t, "", entry{name: "OEBPS/a.xhtml"}, entry{name: "mimetype", data: epubType + "\n"}), []int{3}},
		{"another mimetype", makeZip(t, "", entry{name: "mimetype", data: "application/x-other", stored: true}), nil},
		{"pdf", []byte("%PDF-1.7\n..."), []int{4}},
		{"pdf after junk within 1 KiB", append(bytes.Repeat([]byte{' '}, 1000), "%PDF-1.4"...), []int{4}},
		{"pdf magic past 1 KiB", append(bytes.Repeat([]byte{' '}, 1030), "%PDF-1.4"...), nil},
		{"a zip that is also a pdf", append([]byte("%PDF-1.4\n"), docx...), []int{0, 4}},
		{"no zip", []byte("PK\x03\x04 but cut short"), nil},
		{"zip cut before its directory", docx[:len(docx)/2], nil},
		{"empty", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := set.Match(tc.body); !slices.Equal(got, tc.want) {
				t.Errorf("Match = %v, want %v", got, tc.want)
			}
		})
	}
}

// A zip64 archive (65,536 entries and more) is read through its zip64 end
// record.
func TestContainerRulesZip64(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a zip of 70,000 entries")
	}
	entries := make([]entry, 0, 70_001)
	for i := range 70_000 {
		entries = append(entries, entry{name: "f" + strings.Repeat("x", i%7), stored: true})
	}
	entries = append(entries[:10], append([]entry{{name: "mimetype", data: epubType, stored: true}}, entries[10:]...)...)
	set, err := sdk.CompileContainerRules(officeRules)
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Match(makeZip(t, "", entries...)); !slices.Equal(got, []int{3}) {
		t.Fatalf("Match = %v, want [3]", got)
	}
}

// The URL's extension breaks a tie between matching rules, and only that.
func TestContainerRulesPick(t *testing.T) {
	set, err := sdk.CompileContainerRules(officeRules)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		url     string
		matched []int
		want    int
	}{
		{"https://example.com/a.pdf", []int{0, 4}, 4},
		{"https://example.com/a.PDF?x=1", []int{0, 4}, 4},
		{"https://example.com/a.docx", []int{0, 4}, 0},
		{"https://example.com/download", []int{0, 4}, 0},
		{"report.pdf", []int{0, 4}, 4},
		{"https://example.com/a.pdf", []int{0}, 0}, // the extension claims nothing alone
		{"https://example.com/a.pdf", nil, -1},
	} {
		if got := set.Pick(tc.matched, tc.url); got != tc.want {
			t.Errorf("Pick(%v, %s) = %d, want %d", tc.matched, tc.url, got, tc.want)
		}
	}
}

func TestContainerRuleRefused(t *testing.T) {
	for _, tc := range []struct {
		rule sdk.ContainerRule
		want string
	}{
		{sdk.ContainerRule{MediaType: "application/pdf"}, "sets no test"},
		{sdk.ContainerRule{MediaType: "application/*", Magic: "x"}, "not one exact media type"},
		{sdk.ContainerRule{Magic: "x"}, "not one exact media type"},
		{sdk.ContainerRule{MediaType: "application/octet-stream", Magic: "x"}, "generic type"},
		{sdk.ContainerRule{MediaType: "a/b", ZipEntries: []string{""}}, "empty zip entry"},
		{sdk.ContainerRule{MediaType: "a/b", Magic: "x", MagicWithin: 1 << 20}, "magic within"},
	} {
		_, err := sdk.CompileContainerRules([]sdk.ContainerRule{officeRules[0], tc.rule})
		if err == nil || !strings.Contains(err.Error(), "rule 2") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want rule 2 and %q", tc.rule, err, tc.want)
		}
	}
}

func TestIsGeneric(t *testing.T) {
	for mt, want := range map[string]bool{
		"": true, "application/octet-stream": true, "Application/Octet-Stream; name=a.docx": true,
		"binary/octet-stream": true, "application/zip": true, "application/pdf": false, "text/plain": false,
	} {
		if got := sdk.IsGeneric(mt); got != want {
			t.Errorf("IsGeneric(%q) = %v, want %v", mt, got, want)
		}
	}
}

// A container scan never panics and never claims what no rule could:
// it reads a hostile body's directory in place.
func FuzzContainerMatch(f *testing.F) {
	f.Add(makeZip(f, "", entry{name: "[Content_Types].xml"}, entry{name: "word/document.xml"}))
	f.Add(makeZip(f, "c", entry{name: "mimetype", data: odtType, stored: true}))
	f.Add(makeZip(f, "", entry{name: "mimetype", data: epubType}))
	f.Add([]byte("%PDF-1.7"))
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00"))
	set, err := sdk.CompileContainerRules(officeRules)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, i := range set.Match(body) {
			if i < 0 || i >= len(officeRules) {
				t.Fatalf("matched rule %d of %d", i, len(officeRules))
			}
		}
	})
}
