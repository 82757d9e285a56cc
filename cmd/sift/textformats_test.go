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
)

// textDoc is a test document of the text, CSV, feed and notebook
// extractors, served with a Content-Type and read by sift extract from its
// file.
type textDoc struct {
	file, contentType string
	want              []string // parts of the content
	warning           string   // the one warning expected, "" for none
}

var textDocs = map[string]textDoc{
	// The case: Excel's Japanese CSV (cp932, by iconv).
	"/stations.csv": {"plugins/csv/testdata/stations-cp932.csv", "text/csv; charset=shift_jis",
		[]string{"| 駅名 | 路線 |", "| 京都 | 東海道本線 | 京都府京都市下京区 | 172,450 | ①番線～⑩番線 |"}, ""},
	"/genes.tsv": {"plugins/csv/testdata/genes.tsv", "text/tab-separated-values", []string{"| TP53 | 17 |"}, ""},
	// A feed served as generic XML, sniffed by its root element.
	"/index.xml": {"plugins/feed/testdata/hugo-content.rss", "text/xml", []string{"# Field Notes",
		"## Release 1.2: faster & safer", "[changelog](https://blog.example.org/changelog/)"}, ""},
	"/releases.atom": {"plugins/feed/testdata/atom-github-releases.atom", "application/atom+xml", []string{"## v2.0.0", "#### Breaking changes"}, ""},
	"/news.rdf":      {"plugins/feed/testdata/rdf-slashdot.rdf", "application/rdf+xml", []string{"## Café owners adopt open-source tills"}, ""},
	// A notebook served as JSON, sniffed by its first keys.
	"/sales.ipynb": {"plugins/notebook/testdata/sales.ipynb", "application/json", []string{"# Sales analysis",
		"```python\nimport pandas as pd", "[image output]"}, "the outputs of 1 cells cut at 2048 bytes"},
	"/de.txt": {"plugins/internal/charset/testdata/de.windows-1252", "text/plain; charset=windows-1252", []string{"Übernachtungen sind in zwei Gasthöfen"}, ""},
}

// TestTextFormatsThroughFetch serves each document from a loopback origin
// with its real Content-Type, as application/octet-stream and with none,
// and fetches it through sift serve, whose extractors run as real plugin
// subprocesses. Served without its type, a document is read as what its
// bytes and extension show; one whose charset only its type declared is
// detected, and the guess may be named.
func TestTextFormatsThroughFetch(t *testing.T) {
	root := filepath.Join("..", "..")
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := textDocs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		body, err := os.ReadFile(filepath.Join(root, doc.file))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		switch r.URL.Query().Get("as") {
		case "octet-stream":
			w.Header().Set("Content-Type", "application/octet-stream")
		case "none":
			w.Header()["Content-Type"] = nil // net/http would sniff one
		default:
			w.Header().Set("Content-Type", doc.contentType)
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(origin.Close)
	port := netip.MustParseAddrPort(origin.Listener.Addr().String()).Port()
	addr := serveConfig(t, port, "")
	for path, doc := range textDocs {
		for _, as := range []string{"", "octet-stream", "none"} {
			t.Run(path+"?as="+as, func(t *testing.T) {
				var out struct {
					Content  string
					Warnings []string
					Error    string
				}
				url := fmt.Sprintf("http://127.0.0.1:%d%s?as=%s", port, path, as)
				if code := postJSON(t, addr, "/v1/fetch", map[string]any{"url": url}, &out); code != http.StatusOK {
					t.Fatalf("status %d: %s", code, out.Error)
				}
				for _, want := range doc.want {
					if !strings.Contains(out.Content, want) {
						t.Errorf("content lacks %q:\n%s", want, out.Content)
					}
				}
				if strings.Contains(out.Content, "\uFFFD") {
					t.Errorf("replacement characters in\n%s", out.Content)
				}
				if as == "" && (doc.warning == "" && len(out.Warnings) > 0 ||
					doc.warning != "" && (len(out.Warnings) != 1 || out.Warnings[0] != doc.warning)) {
					t.Errorf("warnings %q, want %q", out.Warnings, doc.warning)
				}
			})
		}
	}
}

// TestExtractTextFormats: sift extract reads the same documents from their
// files, by extension or by sniffing, with the same content.
func TestExtractTextFormats(t *testing.T) {
	for _, path := range []string{"/stations.csv", "/genes.tsv", "/releases.atom", "/news.rdf", "/sales.ipynb"} {
		doc := textDocs[path]
		file, _ := filepath.Abs(filepath.Join("..", "..", doc.file))
		stdout, stderr, code := runSift(t, nil, "extract", "--warm", "0", file)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", file, code, stderr)
		}
		for _, want := range doc.want {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: output lacks %q:\n%s", file, want, stdout)
			}
		}
	}
	// Unlabelled, the cp932 CSV is detected, and the guess is named.
	file, _ := filepath.Abs(filepath.Join("..", "..", textDocs["/stations.csv"].file))
	_, stderr, _ := runSift(t, nil, "extract", "--warm", "0", file)
	if !strings.Contains(stderr, "warning: no charset declared and the text is not UTF-8: read as shift_jis, detected") {
		t.Errorf("stderr %q", stderr)
	}
	// A malformed CSV: exit with the invalid class, the line named.
	_, stderr, code := runSift(t, []byte("a,\"b\n1,2\n"), "extract", "--warm", "0", "--type", "text/csv", "-")
	if code == 0 || !strings.Contains(stderr, "invalid: malformed CSV at line 2, column 5") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
