package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: what the child writes to tty, the test
// reads from pty.
func openPTY(t *testing.T) (pty, tty *os.File) {
	t.Helper()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { pty.Close() })
	if err := unix.IoctlSetPointerInt(int(pty.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(pty.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return pty, tty
}

// runOnTerminal runs sift with stdout and stderr on a terminal and returns
// everything the terminal received.
func runOnTerminal(t *testing.T, env []string, args ...string) []byte {
	t.Helper()
	pty, tty := openPTY(t)
	cmd := exec.Command(siftBin, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = tty, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	got := make(chan []byte)
	go func() {
		var buf bytes.Buffer
		_, _ = io.Copy(&buf, pty) // ends with EIO once the child is gone
		got <- buf.Bytes()
	}()
	_ = cmd.Wait()
	select {
	case out := <-got:
		return out
	case <-time.After(30 * time.Second):
		t.Fatal("the terminal did not close 30 s after sift exited")
		return nil
	}
}

func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// TestTerminalGetsNoControlBytes: what sift extract, fetch and search print
// to a terminal carries no byte a terminal would act on: what sift's answer
// still holds is shown as escapes. sift extract cleans its output as
// /v1/fetch does, for a terminal as for a pipe.
func TestTerminalGetsNoControlBytes(t *testing.T) {
	const hostile = "title\x1b]0;owned\x07 \x1b[2Jcleared \u202Eesrever\u202C \x9b31m end"
	file := filepath.Join(t.TempDir(), "hostile.txt")
	if err := os.WriteFile(file, []byte(hostile), 0o600); err != nil {
		t.Fatal(err)
	}
	sift := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/fetch":
			fmt.Fprintf(w, `{"content": %s, "warnings": [%s]}`, jsonString(hostile), jsonString("warning \x1b[1mbold"))
		case "/v1/search":
			fmt.Fprintf(w, `{"results": [{"url": "http://x/", "title": %s, "snippet": %s}], "warnings": []}`, jsonString(hostile), jsonString(hostile))
		}
	}))
	t.Cleanup(sift.Close)
	env := []string{"SIFT_URL=" + sift.URL, "SIFT_KEY=k", "SIFT_EXTRACT_WARM=0"}
	const cleaned = "title]0;owned [2Jcleared esrever \uFFFD31m end"
	for _, tc := range []struct {
		args []string
		want []string // on the terminal
	}{
		{[]string{"extract", "--type", "text/plain", file}, []string{cleaned, "warning: removed 5 invisible or control characters"}},
		{[]string{"fetch", "http://example.com/"}, []string{`\x1b]0;owned\x07`, `\u202e`}},
		{[]string{"search", "query"}, []string{`\x1b]0;owned\x07`, `\u202e`}},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			out := runOnTerminal(t, env, tc.args...)
			if i := bytes.IndexFunc(out, func(r rune) bool {
				return r != '\n' && r != '\r' && r != '\t' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '\u202E')
			}); i >= 0 {
				t.Errorf("the terminal received a control character at %d: %q", i, out)
			}
			for _, w := range tc.want {
				if !bytes.Contains(out, []byte(w)) {
					t.Errorf("no %q on the terminal: %q", w, out)
				}
			}
		})
	}
	stdout, _, code := runCmd(t, func() *exec.Cmd {
		cmd := exec.Command(siftBin, "extract", "--type", "text/plain", file)
		cmd.Env = append(os.Environ(), env...)
		return cmd
	}())
	if code != 0 || stdout != cleaned+"\n" {
		t.Errorf("a pipe should get the text cleaned as on a terminal: exit %d, %q", code, stdout)
	}
}
