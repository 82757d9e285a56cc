package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode"

	"github.com/siftd/sift/internal/service"
	"github.com/siftd/sift/stages"
)

// hiddenOrigin serves a page and a text file that hide text from a human
// reader with tag characters, bidirectional controls, zero-width
// characters, soft hyphens and control codes (one written as &#27;).
func hiddenOrigin(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<html><head><title>Quarterly\u202E report</title></head><body><article><h1>Report</h1>"+
			strings.Repeat("<p>The harvest was good this year and the granary is full to the roof. </p>", 8)+
			"<p>Visible\U000E0049\U000E0047\U000E004E\U000E004F\U000E0052\U000E0045 text, zero\u200Bwidth, soft\u00ADhyphen, "+
			"&#27;[2Jcleared, \u2066isolated\u2069 words.</p></article></body></html>")
	})
	mux.HandleFunc("/notes.txt", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, "notes\x1b]0;owned\x07 and \u200Bmore\r\n")
	})
	mux.HandleFunc("/esc.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"a": "\u001b[2J\u202e evil \udb40\udc41"}`)
	})
	origin := httptest.NewServer(mux)
	t.Cleanup(origin.Close)
	return origin
}

// hidden reports the first invisible or control character in s.
func hidden(s string) (rune, bool) {
	for _, r := range s {
		if r == '\n' || r == '\t' {
			continue
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u00AD' {
			return r, true
		}
	}
	return 0, false
}

func TestAnswersCarryNoInvisibleCharacters(t *testing.T) {
	t.Parallel()
	origin := hiddenOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	tests := []struct {
		name, path string
		req        map[string]any
		visible    string
	}{
		{"fetch clean", "/v1/fetch", map[string]any{"url": origin.URL + "/page"}, "Visible text, zerowidth, softhyphen, [2Jcleared, isolated words."},
		{"fetch raw", "/v1/fetch", map[string]any{"url": origin.URL + "/notes.txt", "mode": "raw"}, "notes]0;owned and more\n"},
		{"scrape", "/v2/scrape", map[string]any{"url": origin.URL + "/page", "formats": []string{"markdown", "rawHtml"}}, "Visible text, zerowidth"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := post(t, srv.URL+tc.path, testKey, tc.req)
			if resp.StatusCode != 200 {
				t.Fatalf("%d %v", resp.StatusCode, body)
			}
			raw, _ := json.Marshal(body)
			var answer string
			if r, ok := hidden(allText(body)); ok {
				t.Errorf("the answer carries %U:\n%s", r, raw)
			}
			if data, ok := body["data"].(map[string]any); ok {
				answer = data["markdown"].(string)
			} else {
				answer = body["content"].(string)
			}
			if !strings.Contains(answer, tc.visible) {
				t.Errorf("content %q lacks %q", answer, tc.visible)
			}
			if !strings.Contains(string(raw), "invisible or control characters") {
				t.Errorf("no warning counts what was removed: %s", raw)
			}
		})
	}
}

// allText is every key and string in v: what an agent reads.
func allText(v any) string {
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x)
			b.WriteByte('\n')
		case map[string]any:
			for k, e := range x {
				b.WriteString(k)
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// TestErrorsCarryNoInvisibleCharacters: an extractor's error may quote the
// document (jq's error of a value); the answer's error is cleaned like
// its content.
func TestErrorsCarryNoInvisibleCharacters(t *testing.T) {
	t.Parallel()
	origin := hiddenOrigin(t)
	srv := newTestServer(t, origin, testOptions{})
	for _, path := range []string{"/v1/fetch", "/v2/scrape"} {
		req := map[string]any{"url": origin.URL + "/esc.json", "jq": ".a|error"}
		if path == "/v2/scrape" {
			req = map[string]any{"url": origin.URL + "/esc.json", "siftOptions": map[string]any{"jq": ".a|error"}}
		}
		resp, body := post(t, srv.URL+path, testKey, req)
		if resp.StatusCode == 200 {
			t.Fatalf("%s: jq's error answered 200: %v", path, body)
		}
		msg, _ := body["error"].(string)
		if !strings.Contains(msg, "evil") {
			t.Fatalf("%s: the error lost the document's words: %q", path, msg)
		}
		if r, ok := hidden(msg); ok {
			t.Errorf("%s: the error carries %U: %q", path, r, msg)
		}
	}
}

// TestWarningsAreCleaned: a plugin's warning may quote the document too.
func TestWarningsAreCleaned(t *testing.T) {
	t.Parallel()
	doc := &stages.Doc{Warnings: []string{"row \x1b[2Jone\u202e cut"}}
	service.StripInvisible(doc)
	if len(doc.Warnings) != 2 || doc.Warnings[0] != "row [2Jone cut" {
		t.Fatalf("warnings %q: want the first cleaned and a count of what was removed", doc.Warnings)
	}
}
