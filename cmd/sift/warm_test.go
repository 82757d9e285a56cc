package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/siftd/sift/internal/app"
	"github.com/siftd/sift/internal/testkit/testwait"
)

// warmProcs counts the `sift warm` processes serving sockets under dir.
func warmProcs(t *testing.T, dir string) int {
	t.Helper()
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	n := 0
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		args := strings.Split(string(b), "\x00")
		if len(args) > 3 && args[1] == "warm" && strings.HasPrefix(args[3], dir) {
			n++
		}
	}
	return n
}

// warmIdle is how long the warm extractor outlives its last call: longer
// than any gap between the calls of TestExtractWarm on a loaded machine,
// so that they all reach the same one.
const warmIdle = "10s"

// runWarm runs sift extract with warm extractors under runtimeDir.
func runWarm(t *testing.T, runtimeDir, warm string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(siftBin, append([]string{"extract"}, args...)...)
	cmd.Dir = runtimeDir // the same directory, so the same warm extractor
	// The temporary directory is the runtime directory too, so that a test
	// of an unfit one sees no fallback elsewhere.
	cmd.Env = append(os.Environ(), "SIFT_EXTRACT_WARM="+warm, "XDG_RUNTIME_DIR="+runtimeDir, "TMPDIR="+runtimeDir)
	return runCmd(t, cmd)
}

// TestExtractWarm: `sift extract` leaves one warm extractor behind, which
// answers the next calls exactly as an inline run does, errors included,
// and exits when idle.
func TestExtractWarm(t *testing.T) {
	corpus := filepath.Join("..", "..", "plugins", "pdf", "testdata")
	file, _ := filepath.Abs(filepath.Join(corpus, "pdfjs-TAMReview.pdf"))
	scan, _ := filepath.Abs(filepath.Join(corpus, "pdfjs-issue12213.pdf"))
	dir := t.TempDir()
	inline, _, code := runWarm(t, dir, "0", "--format", "text", file)
	if code != 0 || warmProcs(t, dir) != 0 {
		t.Fatalf("inline run: exit %d, %d warm extractors", code, warmProcs(t, dir))
	}
	_, inlineErr, inlineCode := runWarm(t, dir, "0", "-o", "ocr=never", scan)

	// Four calls at once start one warm extractor between them.
	var wg sync.WaitGroup
	outs := make([]string, 4)
	for i := range outs {
		wg.Go(func() {
			out, stderr, code := runWarm(t, dir, warmIdle, "--format", "text", file)
			outs[i] = out
			if code != 0 {
				t.Errorf("warm call %d: exit %d: %s", i, code, stderr)
			}
		})
	}
	wg.Wait()
	for i, out := range outs {
		if out != inline {
			t.Fatalf("warm call %d printed %d bytes, inline %d", i, len(out), len(inline))
		}
	}
	if n := warmProcs(t, dir); n != 1 {
		t.Fatalf("%d warm extractors after four calls, want 1", n)
	}
	socks, _ := filepath.Glob(filepath.Join(dir, "sift-*", "extract-*.sock"))
	if len(socks) != 1 {
		t.Fatalf("sockets: %v", socks)
	}
	_, warmErr, warmCode := runWarm(t, dir, warmIdle, "-o", "ocr=never", scan)
	if warmCode != inlineCode || warmErr != inlineErr {
		t.Fatalf("a scan: warm exit %d %q, inline exit %d %q", warmCode, warmErr, inlineCode, inlineErr)
	}

	testwait.For(t, "the warm extractor to exit once idle", func() bool { return warmProcs(t, dir) == 0 })
	if socks, _ := filepath.Glob(filepath.Join(dir, "sift-*", "extract-*.sock")); len(socks) != 0 {
		t.Fatalf("sockets left behind: %v", socks)
	}
}

// TestExtractWarmFallsBackInline: when the socket's directory, or one
// above it, could be changed by another user, sift extract warns, runs
// inline and starts nothing.
func TestExtractWarmFallsBackInline(t *testing.T) {
	sift := "sift-" + strconv.Itoa(os.Geteuid())
	for _, c := range []struct {
		name string
		// open returns the runtime directory, made unfit under dir.
		open func(t *testing.T, dir string) string
	}{
		{"socket directory open", func(t *testing.T, dir string) string {
			chmod(t, mkdirAll(t, filepath.Join(dir, sift)), 0o777)
			return dir
		}},
		{"runtime directory's parent open", func(t *testing.T, dir string) string {
			chmod(t, mkdirAll(t, filepath.Join(dir, "open")), 0o777)
			return mkdirAll(t, filepath.Join(dir, "open", "rt"))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt := c.open(t, t.TempDir())
			note := filepath.Join(rt, "note.txt")
			if err := os.WriteFile(note, []byte("hello from a note\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := runWarm(t, rt, "3s", note)
			if code != 0 || !strings.Contains(stdout, "hello from a note") || warmProcs(t, filepath.Dir(rt)) != 0 {
				t.Fatalf("exit %d (%s), %q, %d warm extractors", code, stderr, stdout, warmProcs(t, filepath.Dir(rt)))
			}
			if !strings.Contains(stderr, "warning: no warm extractor, extracting inline") {
				t.Fatalf("no warning: %q", stderr)
			}
			if socks, _ := filepath.Glob(filepath.Join(rt, sift, "*")); len(socks) != 0 {
				t.Fatalf("files put in a shared directory: %v", socks)
			}
		})
	}
}

func mkdirAll(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestDevOverrideWithWarmExtractor: under a development override `sift
// extract` warns once per call, inline or warm, and a rebuilt override
// binary is what answers the next warm call, not the old build.
func TestDevOverrideWithWarmExtractor(t *testing.T) {
	module := t.TempDir()
	goCmd := pluginModule(t, module, thirdPartyMain)
	pinned, sum := buildPlugin(t, module, "sift-tail")
	dev := filepath.Join(t.TempDir(), "sift-tail-dev")
	build := func(n int) {
		t.Helper()
		src := strings.Replace(thirdPartyMain, `Content: strings.Join(lines, "\n")`,
			fmt.Sprintf(`Content: "build %d: " + strings.Join(lines, "\n")`, n), 1)
		if err := os.WriteFile(filepath.Join(module, "main.go"), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		goCmd("build", "-o", dev, ".")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "sift.hcl")
	doc := filepath.Join(dir, "app.log")
	for path, body := range map[string]string{
		cfg: fmt.Sprintf("extractor \"tail\" {\n  command = [%q]\n  sha256  = %q\n}\n", pinned, sum),
		doc: "one\ntwo\n",
	} {
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(app.EnvDevOverrides, "tail="+dev)
	t.Cleanup(func() {
		testwait.For(t, "the warm extractors to exit once idle", func() bool { return warmProcs(t, dir) == 0 })
	})

	for i, c := range []struct {
		build      int // the build made before the call; 0: none
		warm, want string
	}{
		{1, "0", "build 1: one\ntwo\n"},
		{0, warmIdle, "build 1: one\ntwo\n"},
		{2, warmIdle, "build 2: one\ntwo\n"},
	} {
		if c.build > 0 {
			build(c.build)
		}
		out, stderr, code := runWarm(t, dir, c.warm, "--config", cfg, "--type", "text/x-log", doc)
		if code != 0 || out != c.want {
			t.Fatalf("call %d (warm %s): exit %d, %q, want %q\n%s", i, c.warm, code, out, c.want, stderr)
		}
		if n := strings.Count(stderr, "DEVELOPMENT OVERRIDE"); n != 1 {
			t.Errorf("call %d (warm %s): %d override warnings, want 1:\n%s", i, c.warm, n, stderr)
		}
	}
	// A plugin's panic exits 33 either way; only inline does its log
	// (the stack) reach the terminal, which the warm answer says.
	boom := filepath.Join(dir, "boom.log")
	if err := os.WriteFile(boom, []byte("PANIC\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{warmIdle, "0"} {
		_, stderr, code := runWarm(t, dir, w, "--config", cfg, "--type", "text/x-log", boom)
		hint := strings.Contains(stderr, "run again with --warm 0")
		if code != 33 || !strings.Contains(stderr, "plugin panicked in Extract: asked to") || hint != (w != "0") {
			t.Errorf("a panic (warm %s): exit %d, want 33 and the panic, the hint only when warm:\n%s", w, code, stderr)
		}
		if w == "0" && !strings.Contains(stderr, "plugin_test") && !strings.Contains(stderr, "main.tail.Extract") {
			t.Errorf("a panic inline: the plugin's stack is not shown:\n%s", stderr)
		}
	}
	list := exec.Command(siftBin, "plugins", "--config", cfg, "--json")
	list.Dir = dir
	out, stderr, code := runCmd(t, list)
	if code != 0 || !strings.Contains(out, `"source": "development override, unpinned"`) || !strings.Contains(out, dev) {
		t.Errorf("sift plugins under the override: exit %d, does not show it:\n%s%s", code, out, stderr)
	}
}
