package main

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/siftd/sift/internal/invisible"
)

// terminalSafe returns w as it is unless it is a terminal; then a writer
// that shows control and invisible characters as escapes instead of
// sending them, so that fetched text cannot move the cursor, clear the
// screen, retitle the window or hide words from the person reading it.
// Pipes and files get the bytes as they are.
func terminalSafe(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return terminalWriter{f}
	}
	return w
}

// cleanText is s without the invisible and control characters that sift's
// answers leave out (invisible.Strip, as every error message of the API is
// cleaned): an error may quote the document.
func cleanText(s string) string {
	s, _ = invisible.Strip(s)
	return s
}

// terminalWriter escapes what a terminal would act on (invisible.Escape).
type terminalWriter struct{ f *os.File }

func (t terminalWriter) Write(p []byte) (int, error) {
	if _, err := t.f.Write(invisible.Escape(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
