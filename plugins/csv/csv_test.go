package csv

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/testkit/golden"
	"github.com/siftd/sift/plugins/sdk"
	"github.com/siftd/sift/plugins/sdk/sdktest"
)

// golden compares got with testdata/golden/name, or rewrites it.
// TestRealFiles renders the files make.sh wrote with iconv and Python's
// csv module, through the real plugin protocol, against golden markdown.
func TestRealFiles(t *testing.T) {
	tests := []struct {
		file, contentType, golden string
		warning                   string // a part of the one warning expected, "" for none
		delimiter, charset        string
	}{
		// The case: Excel's Japanese CSV, served with its label.
		{"stations-cp932.csv", "text/csv; charset=shift_jis", "stations.md", "", ",", "shift_jis"},
		{"stations-cp932.csv", "text/csv; charset=cp932", "stations.md", "", ",", "shift_jis"},
		{"stations-cp932.csv", "text/csv", "stations.md", "read as shift_jis, detected", ",", "shift_jis"},
		{"stations.utf8.csv", "text/csv; charset=utf-8", "stations.md", "", ",", "utf-8"},
		{"quoted.csv", "text/csv", "quoted.md", "", ",", "utf-8"},
		{"excel-semicolon.csv", "application/vnd.ms-excel", "excel-semicolon.md", "", ";", "utf-8"},
		{"genes.tsv", "text/tab-separated-values", "genes.md", "", "\t", "utf-8"},
	}
	ex := sdktest.Extractor(t, New())
	for _, tc := range tests {
		t.Run(tc.file+" as "+tc.contentType, func(t *testing.T) {
			res, err := ex.Extract(context.Background(), &sdk.ExtractRequest{Body: golden.Testdata(t, tc.file), ContentType: tc.contentType})
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "golden", tc.golden), res.Content)
			checkWarning(t, res.Warnings, tc.warning)
			if res.Format != sdk.FormatMarkdown || res.Metadata["delimiter"] != tc.delimiter || res.Metadata["charset"] != tc.charset {
				t.Fatalf("format %s, metadata %q", res.Format, res.Metadata)
			}
		})
	}
}

func checkWarning(t *testing.T, warnings []string, want string) {
	t.Helper()
	if want == "" && len(warnings) > 0 ||
		want != "" && (len(warnings) != 1 || !strings.Contains(warnings[0], want)) {
		t.Fatalf("warnings %q, want one with %q", warnings, want)
	}
}

func TestTables(t *testing.T) {
	long := strings.Repeat("x", MaxCell+10)
	wide := strings.Repeat("c,", MaxColumns+4) + "c"
	tests := []struct {
		name, contentType, body string
		maxOut                  int64
		want                    string
		warning                 string
	}{
		{"header and rows", "text/csv", "a,b\n1,2\n", 0, "| a | b |\n| --- | --- |\n| 1 | 2 |\n", ""},
		{"crlf and no final newline", "text/csv", "a,b\r\n1,2", 0, "| a | b |\n| --- | --- |\n| 1 | 2 |\n", ""},
		{"pipes, backslashes and breaks escaped", "text/csv", "h\n\"a|b\"\n\"x\\|y\"\n\"one\ntwo\"\n", 0,
			"| h |\n| --- |\n| a\\|b |\n| x\\\\\\|y |\n| one<br>two |\n", ""},
		{"ragged rows padded", "text/csv", "a,b,c\n1\n1,2,3,4\n", 0,
			"| a | b | c |  |\n| --- | --- | --- | --- |\n| 1 |  |  |  |\n| 1 | 2 | 3 | 4 |\n", "2 rows had another number of fields than the header"},
		{"semicolons sniffed", "text/csv", "a;b\n1,5;2\n", 0, "| a | b |\n| --- | --- |\n| 1,5 | 2 |\n", ""},
		{"excel's sep line", "text/csv", "sep=|\na|b\n", 0, "| a | b |\n| --- | --- |\n", ""},
		{"a tsv's quotes and commas", "text/tab-separated-values", "a,x\tb\n\"q\tr\"\t2\n", 0, "| a,x | b |\n| --- | --- |\n| q\tr | 2 |\n", ""},
		{"long cell cut", "text/csv", "h\n" + long + "\n", 0, "| h |\n| --- |\n| " + long[:MaxCell] + "… |\n", "1 cells longer than 2000 bytes were cut"},
		{"wide row cut", "text/csv", wide + "\n", 0, "| " + strings.Repeat("c | ", MaxColumns-1) + "c |\n|" + strings.Repeat(" --- |", MaxColumns) + "\n",
			"1 rows had more than 256 fields"},
		{"rows cut at the output cap", "text/csv", "h\n1\n2\n3\n4\n", 30, "| h |\n| --- |\n| 1 |\n| 2 |\n", "table cut at row 4 of 5 (the header is row 1): the rest does not fit the output cap of 30 bytes"},
		{"malformed after some rows", "text/csv", "a,b\n1,2\n3,x\"y\n5,6\n", 0, "| a | b |\n| --- | --- |\n| 1 | 2 |\n",
			`malformed CSV at line 3, column 4 (bare " in non-quoted-field): the table holds the 2 rows before it`},
		{"empty", "text/csv", "", 0, "", "the document holds no rows"},
	}
	e := New()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(tc.body), ContentType: tc.contentType, MaxOutputBytes: tc.maxOut})
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", res.Content, tc.want)
			}
			checkWarning(t, res.Warnings, tc.warning)
		})
	}
}

// A file malformed from its first row is no table: 422 invalid, with where.
func TestMalformedFromTheStart(t *testing.T) {
	for body, want := range map[string]string{
		"a,\"b\n1,2\n": "malformed CSV at line 2, column 5: extraneous or missing \" in quoted-field",
		"x\"y,z\n":     "malformed CSV at line 1, column 2: bare \" in non-quoted-field",
	} {
		_, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: []byte(body), ContentType: "text/csv"})
		var de *sdk.DocError
		if !errors.As(err, &de) || de.Class != sdk.ClassInvalid || !strings.Contains(de.Message, want) {
			t.Errorf("%q: %v, want invalid with %q", body, err, want)
		}
	}
}

// A cell of 100 MB (a body max_body may allow) is cut, not rendered: the
// answer stays within the output cap and its memory near three bodies.
func TestHugeCell(t *testing.T) {
	if testing.Short() {
		t.Skip("100 MB")
	}
	body := make([]byte, 0, 100<<20+32)
	body = append(body, "name,blob\nx,\""...)
	body = append(body, strings.Repeat("a", 100<<20)...)
	body = append(body, "\"\ny,2\n"...)
	res, err := New().Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: "text/csv"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) > 3*MaxCell || !strings.Contains(res.Content, "| y | 2 |") ||
		!slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "1 cells longer than") }) {
		t.Fatalf("%d bytes of content, warnings %q", len(res.Content), res.Warnings)
	}
}

// FuzzExtract: any bytes as CSV or TSV end as a table within the output
// cap or as a document error, never a plugin failure.
func FuzzExtract(f *testing.F) {
	for _, name := range []string{"stations-cp932.csv", "quoted.csv", "excel-semicolon.csv", "genes.tsv"} {
		f.Add(golden.Testdata(f, name), "text/csv")
	}
	f.Add([]byte("a,\"b\n1,2"), "text/csv")
	f.Add([]byte("sep=;\na;b"), "text/tab-separated-values")
	e := New()
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		res, err := e.Extract(context.Background(), &sdk.ExtractRequest{Body: body, ContentType: contentType, MaxOutputBytes: 4096})
		if err != nil {
			var de *sdk.DocError
			if !errors.As(err, &de) {
				t.Fatalf("a plugin failure, not a document error: %v", err)
			}
			return
		}
		if len(res.Content) > 4096 {
			t.Fatalf("%d bytes past the cap", len(res.Content))
		}
	})
}
