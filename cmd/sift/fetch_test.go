package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/errclass"
)

// TestFetchCLIMaxTokens: --max-tokens reaches /v1/fetch, and sift's
// refusal of a bad value is the CLI's error.
func TestFetchCLIMaxTokens(t *testing.T) {
	origin := fixturePages(t)
	addr := startSiftFor(t, origin)
	t.Setenv("SIFT_URL", "http://"+addr)
	t.Setenv("SIFT_KEY", "test-key")
	stdout, stderr, code := runSift(t, nil, "fetch", "--max-tokens", "100000", "--question", "fixture", origin.URL+"/a.html")
	if code != 0 || !strings.Contains(stdout, "Fixture text") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	_, stderr, code = runSift(t, nil, "fetch", "--max-tokens", "0", origin.URL+"/a.html")
	if code == 0 || !strings.Contains(stderr, "max_tokens 0: want 1 to") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// TestFetchCLIExitCodes: `sift fetch` exits with the code errclass's
// table gives: 4 or 5 when the origin answered 4xx or 5xx (its page is
// still printed), the class's code when sift refused or failed (a class of
// the extractor's own, as `sift extract` does), 0 else.
func TestFetchCLIExitCodes(t *testing.T) {
	blank, err := os.ReadFile(filepath.Join("..", "..", "plugins", "pdf", "testdata", "blank-drawing.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/blank.pdf" {
			w.Header().Set("Content-Type", "application/pdf")
			w.Write(blank)
			return
		}
		status := map[string]int{"/missing": 404, "/broken": 503}[r.URL.Path]
		if status == 0 {
			status = 200
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprintf(w, `<html><head><title>%d</title></head><body><article><h1>Page %d</h1>%s</article></body></html>`,
			status, status, strings.Repeat("<p>Fixture text for the exit code check, served on loopback only. </p>", 10))
	}))
	t.Cleanup(origin.Close)
	addr := startSiftFor(t, origin)
	t.Setenv("SIFT_URL", "http://"+addr)
	t.Setenv("SIFT_KEY", "test-key")
	exit := func(c errclass.Class) int { return errclass.Get(c).Exit }
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{origin.URL + "/page"}, 0, "Page 200", ""},
		{[]string{origin.URL + "/missing"}, exit(errclass.Origin4xx), "Page 404", "the origin answered 404 Not Found"},
		{[]string{origin.URL + "/broken"}, exit(errclass.Origin5xx), "Page 503", "the origin answered 503 Service Unavailable"},
		{[]string{"--json", origin.URL + "/missing"}, exit(errclass.Origin4xx), `"status":404`, "the origin answered 404"},
		{[]string{"http://10.0.0.5/"}, exit(errclass.Blocked), "", "blocked: private address 10.0.0.5"},
		{[]string{"--max-tokens", "0", origin.URL + "/page"}, exit(errclass.Invalid), "", "invalid: max_tokens 0"},
		{[]string{origin.URL + "/blank.pdf"}, exit(errclass.Invalid), "", "empty: the PDF's pages hold no text and no images"},
	}
	for _, tc := range tests {
		stdout, stderr, code := runSift(t, nil, append([]string{"fetch"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("sift fetch %v: exit %d, want %d\nstdout: %.200s\nstderr: %s", tc.args, code, tc.code, stdout, stderr)
		}
	}
	t.Setenv("SIFT_KEY", "wrong-key")
	if _, stderr, code := runSift(t, nil, "fetch", origin.URL+"/page"); code != exit(errclass.Unauthorized) {
		t.Errorf("a wrong key: exit %d, want %d: %s", code, exit(errclass.Unauthorized), stderr)
	}
	for _, c := range []errclass.Class{errclass.Origin4xx, errclass.Origin5xx, errclass.Blocked, errclass.Invalid, errclass.Unauthorized} {
		if exit(c) <= 1 {
			t.Errorf("%s exits %d, which says nothing more than a failure", c, exit(c))
		}
	}
}

// TestExtractExitCodes: `sift extract` exits with the code of the class
// it failed with, as `sift fetch` does.
func TestExtractExitCodes(t *testing.T) {
	_, stderr, code := runSift(t, []byte("{\"a\":\n ]"), "extract")
	if want := errclass.Get(errclass.Invalid).Exit; code != want {
		t.Errorf("malformed JSON: exit %d, want %d: %s", code, want, stderr)
	}
	_, stderr, code = runSift(t, []byte("x"), "extract", "--type", "image/avif")
	if want := errclass.Get(errclass.Unsupported).Exit; code != want {
		t.Errorf("no extractor: exit %d, want %d: %s", code, want, stderr)
	}
}
