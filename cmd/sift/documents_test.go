package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/errclass"
)

// document is a file made by a real converter (the plugins' testdata),
// its real Content-Type, and the golden markdown its extractor's own test
// holds it to.
type document struct {
	file, mediaType, golden string
}

var documents = []document{
	{"plugins/office/testdata/report.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "plugins/office/testdata/golden/report.docx.md"},
	{"plugins/office/testdata/thumbnail.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "plugins/office/testdata/golden/thumbnail.docx.md"},
	{"plugins/office/testdata/lo/report.odt", "application/vnd.oasis.opendocument.text", "plugins/office/testdata/golden/lo-report.odt.md"},
	{"plugins/office/testdata/lo/book.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "plugins/office/testdata/golden/lo-book.xlsx.md"},
	{"plugins/office/testdata/lo/book.ods", "application/vnd.oasis.opendocument.spreadsheet", "plugins/office/testdata/golden/lo-book.ods.md"},
	{"plugins/office/testdata/deck.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation", "plugins/office/testdata/golden/deck.pptx.md"},
	{"plugins/office/testdata/lo/deck.odp", "application/vnd.oasis.opendocument.presentation", "plugins/office/testdata/golden/lo-deck.odp.md"},
	{"plugins/epub/testdata/book.epub", "application/epub+zip", "plugins/epub/testdata/golden/book.epub.md"},
}

// goldenContent is the markdown part of a plugin's golden file.
func goldenContent(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	_, content, ok := strings.Cut(string(raw), "\n---\n")
	if !ok {
		t.Fatalf("%s: no --- before the content", path)
	}
	return content
}

// TestDocumentsThroughThePipeline: every office document and e-book is
// served from loopback with its real Content-Type and again as
// application/octet-stream (what object stores send), through sift
// serve's real pipeline and plugin processes; both answers are the
// extractor's golden markdown, and so is `sift extract FILE` on the local
// file. A PDF served as octet-stream is recognised too; a legacy .xls and
// a damaged package are refused with their class, by both alike.
func TestDocumentsThroughThePipeline(t *testing.T) {
	files := map[string][]byte{}
	types := map[string]string{}
	for _, d := range append(documents, document{file: "plugins/pdf/testdata/pdfjs-TAMReview.pdf", mediaType: "application/pdf"},
		document{file: "plugins/office/testdata/lo/book.xls", mediaType: "application/vnd.ms-excel"}) {
		b, err := os.ReadFile(filepath.Join("..", "..", d.file))
		if err != nil {
			t.Fatal(err)
		}
		files["/"+filepath.Base(d.file)], types["/"+filepath.Base(d.file)] = b, d.mediaType
	}
	files["/damaged.docx"] = files["/report.docx"][:len(files["/report.docx"])-200]
	types["/damaged.docx"] = types["/report.docx"]
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/octet")
		body, ok := files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", types[name])
		if strings.HasPrefix(r.URL.Path, "/octet/") {
			w.Header().Set("Content-Type", "application/octet-stream")
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(origin.Close)
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := serveConfig(t, port, "")
	fetch := func(path string) (int, fetchAnswer) {
		var out fetchAnswer
		code := postJSON(t, addr, "/v1/fetch", map[string]any{"url": fmt.Sprintf("http://127.0.0.1:%d%s", port, path)}, &out)
		return code, out
	}
	for _, d := range documents {
		name := filepath.Base(d.file)
		want := goldenContent(t, d.golden)
		t.Run(name, func(t *testing.T) {
			for _, path := range []string{"/" + name, "/octet/" + name} {
				code, out := fetch(path)
				if code != http.StatusOK || strings.TrimSpace(out.Content) != strings.TrimSpace(want) {
					t.Errorf("%s: status %d (%s), content differs from %s:\n%s", path, code, out.Error, d.golden, out.Content)
				}
			}
			stdout, stderr, code := runSift(t, nil, "extract", repoFile(t, d.file))
			if code != 0 || strings.TrimSpace(stdout) != strings.TrimSpace(want) {
				t.Errorf("sift extract %s: exit %d, stderr %s, content differs:\n%s", name, code, stderr, stdout)
			}
		})
	}
	t.Run("a pdf as octet-stream", func(t *testing.T) {
		code, out := fetch("/octet/pdfjs-TAMReview.pdf")
		if code != http.StatusOK || !strings.HasPrefix(out.Content, "<!-- page 1 -->") || out.Metadata["pages"] != "23" {
			t.Errorf("status %d (%s), metadata %v, content %.100q", code, out.Error, out.Metadata, out.Content)
		}
	})
	for _, tc := range []struct {
		path, file string
		status     int
		class      errclass.Class
		message    string
	}{
		{"/book.xls", "plugins/office/testdata/lo/book.xls", http.StatusUnsupportedMediaType, errclass.Unsupported, "an Excel 97-2003 workbook (.xls, BIFF) is not read"},
		{"/octet/book.xls", "", http.StatusUnsupportedMediaType, errclass.Unsupported, "an Excel 97-2003 workbook (.xls, BIFF) is not read"},
		{"/damaged.docx", "", http.StatusUnprocessableEntity, errclass.Invalid, "not a readable zip package"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			code, out := fetch(tc.path)
			if code != tc.status || !strings.Contains(out.Error, tc.message) {
				t.Errorf("status %d, error %q; want %d saying %q", code, out.Error, tc.status, tc.message)
			}
			if tc.file == "" {
				return
			}
			_, stderr, exit := runSift(t, nil, "extract", repoFile(t, tc.file))
			if want := errclass.Get(tc.class).Exit; exit != want || !strings.Contains(stderr, tc.message) {
				t.Errorf("sift extract: exit %d, want %d: %s", exit, want, stderr)
			}
		})
	}
	damaged := filepath.Join(t.TempDir(), "damaged.docx")
	if err := os.WriteFile(damaged, files["/damaged.docx"], 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, exit := runSift(t, nil, "extract", damaged)
	if want := errclass.Get(errclass.Invalid).Exit; exit != want || !strings.Contains(stderr, "not a readable zip package") {
		t.Errorf("sift extract of a damaged package: exit %d, want %d: %s", exit, want, stderr)
	}
}

// repoFile is a file of the repository as an absolute path: sift runs in
// a folder of its own.
func repoFile(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// fetchAnswer is what these tests read of /v1/fetch's answer.
type fetchAnswer struct {
	Content  string
	Metadata map[string]string
	Warnings []string
	Error    string
}

// TestOfficeMemoryTooSmallFailsAtStart: an office block whose memory is
// less than max_body needs is refused by sift validate, naming both,
// rather than answering 502 on the first large document.
func TestOfficeMemoryTooSmallFailsAtStart(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.hcl")
	src := testCaller + `
pipeline {
  stage "guard" {}
  stage "fetch" { max_body = "64MiB" }
  stage "extract" {}
}
extractor "office" { memory = "256MiB" }
`
	if err := os.WriteFile(cfg, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runSift(t, nil, "validate", "--config", cfg)
	if code == 0 || !strings.Contains(stderr, `extractor "office" has memory = 256MiB, but reading a body of max_body (64MiB) needs`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
