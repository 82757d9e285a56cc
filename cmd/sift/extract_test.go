package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siftd/sift/internal/invisible"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// hostilePage hides text from its reader in every part sift prints: tag
// characters spelling an instruction, bidirectional overrides, a
// zero-width space and OSC escapes (a window title, a hyperlink) in the
// title, the description and the article.
const hostilePage = "<html><head><title>Ti\u202Etle\x1b]0;owned\x07</title>" +
	"<meta name=\"description\" content=\"de\U000E0049\U000E0047sc\u202D\"></head><body><article>" +
	"<h1>Head\u202Eing</h1>" +
	"<p>Buy\U000E0049\U000E0047\U000E004E\U000E004F\U000E0052\U000E0045 now \x1b]8;;http://evil.example/\x07link\x1b]8;;\x07 and \u200Bzero.</p>" +
	"<p>A second paragraph, with words enough to be the page's main content.</p>" +
	"</article></body></html>"

// hidden returns the first character of s a reader would not see (one
// invisible.Strip removes, or a lone carriage return), or "".
func hidden(s string) string {
	for i, r := range s {
		if invisible.Removed(r) || r == '\r' && !strings.HasPrefix(s[i+1:], "\n") {
			return fmt.Sprintf("%U at byte %d", r, i)
		}
	}
	return ""
}

// TestExtractCleansInvisible: whatever `sift extract` writes, to a pipe or
// a file, inline or through a warm extractor, as markdown, text, JSON or
// the batch protocol, errors included, is cleaned of invisible and control
// characters as /v1/fetch cleans its answer, and says how many it removed.
// TestExtractStoresNothing: `sift extract` of a local file, run where the
// embedded default's data_dir (./data) would be, creates no database
// there, and says nothing about that directory; it created ./data/sift.db.
func TestExtractStoresNothing(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, []byte("<html><body><h1>Notes</h1><p>Water the ferns.</p></body></html>"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(siftBin, "extract", page)
	cmd.Dir = dir
	stdout, stderr, code := runCmd(t, cmd)
	if code != 0 || !strings.Contains(stdout, "Water the ferns") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); !os.IsNotExist(err) {
		t.Errorf("sift extract made %s (stat: %v); stderr %q", filepath.Join(dir, "data"), err, stderr)
	}
	if stderr != "" {
		t.Errorf("stderr %q, want nothing", stderr)
	}
}

func TestExtractCleansInvisible(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "hostile.html")
	doc := filepath.Join(dir, "hostile.json")
	if err := os.WriteFile(page, []byte(hostilePage), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, []byte(`{"a": "x\u202ey\u001b]0;owned\u0007"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	batchIn := fmt.Sprintf("%d https://example.com/\n%s", len(hostilePage), hostilePage)
	tests := []struct {
		name  string
		args  []string
		stdin string
		file  bool   // stdout to a file rather than a pipe
		warm  string // SIFT_EXTRACT_WARM
		code  int
		// want is in stdout, or in stderr when the run fails.
		want    []string
		warning bool // stderr says what was removed
	}{
		{name: "markdown to a pipe", args: []string{page}, want: []string{"# Heading", "Buy now", "link", "zero."}, warning: true},
		{name: "markdown to a file", args: []string{page}, file: true, want: []string{"Buy now"}, warning: true},
		{name: "text format", args: []string{"--format", "text", page}, want: []string{"Buy now"}, warning: true},
		{name: "json envelope", args: []string{"--json", page}, want: []string{`"title": "Heading"`, `"description": "desc"`, "Buy now", "removed "}},
		{name: "warm extractor", args: []string{page}, warm: "1s", want: []string{"Buy now"}, warning: true},
		{name: "batch protocol", args: []string{"--batch"}, stdin: batchIn, want: []string{"ok\n# Heading", "Buy now"}},
		{name: "an error quoting the document", args: []string{"-o", "jq=.a | error", doc}, code: 13, want: []string{"sift: invalid: jq: error: xy]0;owned\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runtime := t.TempDir()
			cmd := exec.Command(siftBin, append([]string{"extract"}, tc.args...)...)
			cmd.Dir = runtime
			warm := tc.warm
			if warm == "" {
				warm = "0"
			}
			cmd.Env = append(os.Environ(), "SIFT_EXTRACT_WARM="+warm, "XDG_RUNTIME_DIR="+runtime, "TMPDIR="+runtime)
			cmd.Stdin = strings.NewReader(tc.stdin)
			var stdout, stderr string
			var code int
			if tc.file {
				out, err := os.Create(filepath.Join(runtime, "out.md"))
				if err != nil {
					t.Fatal(err)
				}
				var b strings.Builder
				cmd.Stdout, cmd.Stderr = out, &b
				if err := cmd.Run(); err != nil {
					t.Fatal(err)
				}
				out.Close()
				written, err := os.ReadFile(out.Name())
				if err != nil {
					t.Fatal(err)
				}
				stdout, stderr = string(written), b.String()
			} else {
				stdout, stderr, code = runCmd(t, cmd)
			}
			if tc.warm != "" {
				testwait.For(t, "the warm extractor to exit once idle", func() bool { return warmProcs(t, runtime) == 0 })
			}
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout %q\nstderr %q", code, tc.code, stdout, stderr)
			}
			if at := hidden(stdout); at != "" {
				t.Errorf("stdout holds %s: %q", at, stdout)
			}
			if at := hidden(stderr); at != "" {
				t.Errorf("stderr holds %s: %q", at, stderr)
			}
			if tc.args[0] == "--json" {
				var env envelope
				if err := json.Unmarshal([]byte(stdout), &env); err != nil {
					t.Fatalf("%v: %s", err, stdout)
				}
				for _, s := range append([]string{env.Title, env.Content}, append(env.Warnings, env.Metadata["description"])...) {
					if at := hidden(s); at != "" {
						t.Errorf("the envelope holds %s: %q", at, s)
					}
				}
			}
			got := stdout
			if tc.code != 0 {
				got = stderr
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("no %q in %q", w, got)
				}
			}
			if tc.warning && !strings.Contains(stderr, "warning: removed ") {
				t.Errorf("no warning of what was removed: %q", stderr)
			}
		})
	}
}

// TestFetchCLIPrintsCleanText: what `sift fetch` prints to a pipe of a
// hostile page, in clean and raw mode, holds no invisible or control
// character either: /v1/fetch cleaned it.
func TestFetchCLIPrintsCleanText(t *testing.T) {
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, hostilePage)
	}))
	t.Cleanup(origin.Close)
	addr := startSiftFor(t, origin)
	t.Setenv("SIFT_URL", "http://"+addr)
	t.Setenv("SIFT_KEY", "test-key")
	for _, mode := range []string{"clean", "raw"} {
		t.Run(mode, func(t *testing.T) {
			stdout, stderr, code := runSift(t, nil, "fetch", "--mode", mode, origin.URL+"/")
			if code != 0 || !strings.Contains(stdout, "Buy") || !strings.Contains(stderr, "warning: removed") {
				t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
			}
			if at := hidden(stdout + stderr); at != "" {
				t.Errorf("the output holds %s: %q %q", at, stdout, stderr)
			}
		})
	}
}

// TestExtractBatchOptions: the batch protocol applies the -o options to
// every page, as a single extract does; they were ignored.
func TestExtractBatchOptions(t *testing.T) {
	page := `<html><body><article><h1>Pruning</h1><p>Apple trees are pruned in late winter, while they are dormant, so that the cuts heal.</p>` +
		`<p><img src="/img/cut.jpg" alt="A cut above a bud"></p><p>Take out the dead and crossing branches first, then thin the crown.</p></article></body></html>`
	in := fmt.Sprintf("%d https://garden.example/p\n%s%d https://garden.example/p\n%s", len(page), page, len(page), page)
	for _, tc := range []struct {
		args       []string
		want, gone string
	}{
		{[]string{"--batch"}, "thin the crown", "cut.jpg"},
		{[]string{"--batch", "-o", "images=true"}, "![A cut above a bud](https://garden.example/img/cut.jpg)", ""},
	} {
		runtime := t.TempDir()
		cmd := exec.Command(siftBin, append([]string{"extract"}, tc.args...)...)
		cmd.Dir = runtime
		cmd.Env = append(os.Environ(), "SIFT_EXTRACT_WARM=0", "XDG_RUNTIME_DIR="+runtime, "TMPDIR="+runtime)
		cmd.Stdin = strings.NewReader(in)
		stdout, stderr, code := runCmd(t, cmd)
		if code != 0 || strings.Count(stdout, tc.want) != 2 || tc.gone != "" && strings.Contains(stdout, tc.gone) {
			t.Errorf("%v: exit %d\nstdout %q\nstderr %q", tc.args, code, stdout, stderr)
		}
	}
}
