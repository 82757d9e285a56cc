package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/siftd/sift/errclass"
)

// siftBin is the sift binary built once for these tests: they run it as a
// user would, and it re-executes itself for its built-in plugins.
var siftBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sift-cmd-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	siftBin = filepath.Join(dir, "sift")
	// sift-html goes beside sift, where sift looks for it.
	if out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), ".", "../sift-html").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build sift: %v\n%s", err, out)
		os.Exit(1)
	}
	// Tests run `sift extract` inline unless they test warm extractors,
	// which would otherwise outlive them.
	os.Setenv("SIFT_EXTRACT_WARM", "0")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func runSift(t *testing.T, stdin []byte, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(siftBin, args...)
	cmd.Dir = t.TempDir() // no ./config.hcl: the embedded default applies
	cmd.Stdin = bytes.NewReader(stdin)
	return runCmd(t, cmd)
}

// runCmd runs cmd and returns its output and exit code.
func runCmd(t *testing.T, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestValidateReportsEveryProblem(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "bad.hcl")
	src := `pipeline {
  stage "guard" {}
  stage "extract" {}
  stage "fetch" {
    timout = "20s"
  }
  stage "summarize" {}
}

extractor "html" {
  pool = "two"
}
`
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runSift(t, nil, "validate", cfg)
	if code == 0 {
		t.Fatal("validate exited 0 on a bad config")
	}
	lines := regexp.MustCompile(`on .*bad\.hcl line (\d+)`).FindAllStringSubmatch(stderr, -1)
	var got []int
	for _, m := range lines {
		n, _ := strconv.Atoi(m[1])
		got = append(got, n)
	}
	// wrong type (11), unknown attribute (5), unknown stage (7), stage before its dependency (3)
	want := map[int]bool{11: true, 5: true, 7: true, 3: true}
	if len(got) != 4 {
		t.Fatalf("got %d diagnostics at lines %v, want 4:\n%s", len(got), got, stderr)
	}
	for _, n := range got {
		if !want[n] {
			t.Errorf("unexpected diagnostic at line %d:\n%s", n, stderr)
		}
	}
	if !strings.Contains(stderr, `Did you mean "timeout"?`) {
		t.Errorf("no suggestion for the misspelt attribute:\n%s", stderr)
	}
}

func TestValidateShippedConfig(t *testing.T) {
	shipped, err := filepath.Abs(filepath.Join("..", "..", "config.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	// The file as the argument, or with --config as other commands take it.
	for _, args := range [][]string{{"validate", shipped}, {"validate", "--config", shipped}} {
		stdout, stderr, code := runSift(t, nil, args...)
		if code != 0 || stdout != shipped+": ok\n" {
			t.Fatalf("%v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
}

func TestExtractTypes(t *testing.T) {
	tests := []struct {
		name  string
		input string
		args  []string
		want  string
	}{
		{"json sniffed", `{"a":1}`, nil, "{\n  \"a\": 1\n}\n"},
		{"jq option", `{"a":{"b":[1,2]}}`, []string{"-o", "jq=.a.b[1]"}, "2\n"},
		{"text", "plain words", []string{"--type", "text/plain"}, "plain words\n"},
		{"html", "<html><body><p>Hello <b>agent</b>.</p></body></html>", []string{"--type", "text/html"}, "Hello **agent**.\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runSift(t, []byte(tc.input), append([]string{"extract"}, tc.args...)...)
			if code != 0 || stdout != tc.want {
				t.Fatalf("exit %d, stdout %q, want %q\n%s", code, stdout, tc.want, stderr)
			}
			// Plugins started and stopped in good order log nothing.
			if strings.Contains(stderr, "ERROR") {
				t.Fatalf("a clean run logged an error:\n%s", stderr)
			}
		})
	}
}

func TestExtractErrors(t *testing.T) {
	_, stderr, code := runSift(t, []byte("{\"a\":\n ]"), "extract")
	if code == 0 || !strings.Contains(stderr, "invalid: malformed JSON at line 2, column 2") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = runSift(t, []byte("x"), "extract", "--type", "image/avif")
	if code == 0 || !strings.Contains(stderr, `unsupported content type "image/avif"`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestExtractJSONEnvelope(t *testing.T) {
	page := `<html lang="en"><head><title>T</title></head><body><p>One short line.</p></body></html>`
	stdout, stderr, code := runSift(t, []byte(page), "extract", "--type", "text/html", "--json", "--url", "https://a.example/x")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var env envelope
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if env.ContentType != "text/html" || env.Format != "markdown" || env.Content != "One short line." || env.Title != "T" || env.Metadata["language"] != "en" {
		t.Fatalf("envelope %+v", env)
	}
}

// TestExtractBatchProtocol speaks the benchmark's batch protocol to one
// warm process.
func TestExtractBatchProtocol(t *testing.T) {
	pages := []string{
		"<html><body><p>First page.</p></body></html>",
		"<html><body><article><p>Second page.</p></article></body></html>",
	}
	var in bytes.Buffer
	for i, p := range pages {
		fmt.Fprintf(&in, "%d https://example.com/%d\n%s", len(p), i, p)
	}
	stdout, stderr, code := runSift(t, in.Bytes(), "extract", "--batch")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header := regexp.MustCompile(`^(\d+) ([0-9.]+) (ok|err)\n`)
	var outputs []string
	rest := stdout
	for rest != "" {
		m := header.FindStringSubmatch(rest)
		if m == nil {
			t.Fatalf("bad reply header in %q", rest)
		}
		n, _ := strconv.Atoi(m[1])
		rest = rest[len(m[0]):]
		outputs = append(outputs, m[3]+":"+rest[:n])
		rest = rest[n:]
	}
	want := []string{"ok:First page.", "ok:Second page."}
	if strings.Join(outputs, "|") != strings.Join(want, "|") {
		t.Fatalf("outputs %q, want %q", outputs, want)
	}
}

func TestPluginSubcommandRefusesUnknown(t *testing.T) {
	_, stderr, code := runSift(t, nil, "plugin", "nope")
	if code == 0 || !strings.Contains(stderr, `no built-in plugin "nope"`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// TestHelpListsPluginNew: a plugin author finds `sift plugin new` from
// `sift --help`, and `sift plugin` without a name is that group's help.
func TestHelpListsPluginNew(t *testing.T) {
	stdout, stderr, code := runSift(t, nil, "--help")
	if code != 0 || !regexp.MustCompile(`(?m)^  plugin +.*sift plugin new NAME`).MatchString(stdout) {
		t.Errorf("sift --help: exit %d, does not list the plugin command:\n%s%s", code, stdout, stderr)
	}
	for _, args := range [][]string{{"plugin", "--help"}, {"plugin"}} {
		stdout, stderr, code = runSift(t, nil, args...)
		if code != 0 || !regexp.MustCompile(`(?m)^  new +Write a new extractor plugin module`).MatchString(stdout) {
			t.Errorf("sift %s: exit %d, does not list new:\n%s%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

func TestKeyNew(t *testing.T) {
	stdout, _, code := runSift(t, nil, "key", "new", "agent")
	if code != 0 || !regexp.MustCompile(`caller "agent" \{\n  key_sha256 = "[0-9a-f]{64}"`).MatchString(stdout) {
		t.Fatalf("exit %d: %s", code, stdout)
	}
}

func TestGuardCommand(t *testing.T) {
	stdout, _, code := runSift(t, nil, "guard", "--no-resolve", "https://example.com/", "http://10.0.0.5/", "http://[::1]/")
	want := "allow https://example.com/\nblock http://10.0.0.5/: private address 10.0.0.5\nblock http://[::1]/: loopback address ::1\n"
	if code != 1 || stdout != want {
		t.Fatalf("exit %d, output:\n%s\nwant:\n%s", code, stdout, want)
	}
	stdout, _, code = runSift(t, nil, "guard", "--no-resolve", "https://1.1.1.1/")
	if code != 0 || stdout != "allow https://1.1.1.1/\n" {
		t.Fatalf("exit %d: %s", code, stdout)
	}
}

// TestExtractPDF: `sift extract --format text` prints a PDF's pages
// separated by form feeds, as pdftotext does; a scan read with
// -o ocr=never is a clean error (TestExtractImageAndScan reads one).
func TestExtractPDF(t *testing.T) {
	corpus := filepath.Join("..", "..", "plugins", "pdf", "testdata")
	file, _ := filepath.Abs(filepath.Join(corpus, "pdfjs-TAMReview.pdf"))
	stdout, stderr, code := runSift(t, nil, "extract", "--format", "text", file)
	if code != 0 || strings.Count(stdout, "\f") != 22 || strings.Contains(stdout, "<!-- page") ||
		!strings.Contains(stdout, "Technology Acceptance Model") {
		t.Fatalf("code %d, %d form feeds, stderr %q", code, strings.Count(stdout, "\f"), stderr)
	}
	scan, _ := filepath.Abs(filepath.Join(corpus, "pdfjs-issue12213.pdf"))
	_, stderr, code = runSift(t, nil, "extract", "-o", "ocr=never", scan)
	if code == 0 || !strings.Contains(stderr, "no_text:") || strings.Contains(stderr, "panic") {
		t.Fatalf("a scan: code %d, %q", code, stderr)
	}
	// A class of the PDF plugin's own is a document no retry helps with:
	// it was exit 37, "internal, a retry may help".
	encrypted, _ := filepath.Abs(filepath.Join(corpus, "pdfjs-issue6010_1.pdf"))
	_, stderr, code = runSift(t, nil, "extract", encrypted)
	if code != errclass.Get(errclass.Invalid).Exit || !strings.HasPrefix(stderr, "sift: encrypted:") {
		t.Fatalf("an encrypted PDF: code %d, %q", code, stderr)
	}
}
