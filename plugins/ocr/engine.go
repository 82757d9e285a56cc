// Package ocr reads text from images with Debian's tesseract CLI, run as
// a child process per page: a deadline per page, a memory limit, no
// network and an empty environment. It is the engine of the pdf
// extractor's scanned pages and of the ocr extractor, which reads PNG,
// JPEG, TIFF, WebP, GIF and BMP images (images.go).
//
// tesseract is given only a grey PGM that this package writes itself,
// never the document's own bytes: the image formats are decoded by Go's
// memory-safe decoders, and tesseract's file-list and URL inputs (a
// non-image input is read as a list of files to open) cannot be reached.
package ocr

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Package names the Debian packages that bring the engine.
const Package = "tesseract-ocr"

// Defaults of the OCR attributes.
const (
	DefaultPageTimeout = 60 * time.Second
	DefaultPageMemory  = 1 << 30
)

// DefaultLanguages are read when a block names none.
var DefaultLanguages = []string{"eng"}

// ErrMissing is the engine not being installed.
var ErrMissing = errors.New("the OCR engine, tesseract, is not installed: install Debian's " + Package + " (and tesseract-ocr-eng, or the packs of the languages to read)")

// Engine runs tesseract.
type Engine struct {
	// Path is the tesseract binary.
	Path string
	// Version is what tesseract --version prints first ("5.3.0").
	Version string
	// Languages are tesseract's language codes, read together.
	Languages []string
	// PageTimeout bounds one page's OCR.
	PageTimeout time.Duration
	// PageMemory bounds the data segment of one tesseract process.
	PageMemory int64

	slots   *slots
	isoOnce sync.Once
	iso     isolation
}

// NewEngine returns the engine at path (see Find), reading languages.
func NewEngine(path, version string, languages []string, pageTimeout time.Duration, pageMemory int64) *Engine {
	return &Engine{Path: path, Version: version, Languages: languages, PageTimeout: pageTimeout, PageMemory: pageMemory, slots: newSlots()}
}

// Networked reports whether tesseract runs with the machine's network,
// for want of a namespace this machine lets sift make.
func (e *Engine) Networked() bool {
	e.isoOnce.Do(func() { e.iso = probeIsolation(e.Path) })
	return e.iso.networked()
}

// Find locates tesseract on PATH and reads its version and its installed
// languages; the error is ErrMissing when it is not there.
func Find(ctx context.Context) (path, version string, languages []string, err error) {
	path, err = exec.LookPath("tesseract")
	if err != nil {
		return "", "", nil, ErrMissing
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := command(ctx, path, "--version").Output()
	if err != nil {
		return "", "", nil, fmt.Errorf("tesseract --version: %w", err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	version = strings.TrimSpace(strings.TrimPrefix(first, "tesseract"))
	out, err = command(ctx, path, "--list-langs").Output()
	if err != nil {
		return "", "", nil, fmt.Errorf("tesseract --list-langs: %w", err)
	}
	for _, line := range strings.Split(string(out), "\n")[1:] {
		if l := strings.TrimSpace(line); l != "" && l != "osd" {
			languages = append(languages, l)
		}
	}
	return path, version, languages, nil
}

// MissingLanguages are those of want that installed lacks.
func MissingLanguages(want, installed []string) []string {
	var out []string
	for _, l := range want {
		if !slices.Contains(installed, l) {
			out = append(out, l)
		}
	}
	return out
}

// command is tesseract with an empty environment but one variable: one
// thread per process (OpenMP's threads cost 4× the time on a loaded
// 2-core machine, 18.5 s against 4.5 s a page; sift runs pages in
// parallel instead).
func command(ctx context.Context, path string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = []string{"OMP_THREAD_LIMIT=1"}
	cmd.Dir = "/"
	cmd.WaitDelay = time.Second
	return cmd
}

// Page is what OCR read on one image.
type Page struct {
	// Text is the page's words, a line per line, a blank line between
	// paragraphs.
	Text string
	// Confidence is tesseract's mean word confidence, 0 to 100; Words
	// the words it is the mean of.
	Confidence float64
	Words      int
}

// maxOutput bounds what one tesseract process may print.
const maxOutput = 16 << 20

// Recognize reads img, of dpi dots per inch (0: unknown), taking one of
// the machine's OCR slots (one per core, shared by every sift process)
// while tesseract runs.
func (e *Engine) Recognize(ctx context.Context, img *image.Gray, dpi int) (Page, error) {
	release, err := e.slots.acquire(ctx)
	if err != nil {
		return Page{}, err
	}
	defer release()
	timeout := e.PageTimeout
	if timeout <= 0 {
		timeout = DefaultPageTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	langs := e.Languages
	if len(langs) == 0 {
		langs = DefaultLanguages
	}
	args := []string{"stdin", "stdout", "-l", strings.Join(langs, "+")}
	if dpi > 0 {
		args = append(args, "--dpi", strconv.Itoa(dpi))
	}
	cmd := command(ctx, e.Path, append(args, "tsv")...)
	e.isoOnce.Do(func() { e.iso = probeIsolation(e.Path) })
	e.iso.apply(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &capped{buf: &stdout, max: maxOutput}
	cmd.Stderr = &capped{buf: &stderr, max: 4 << 10}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return Page{}, fmt.Errorf("tesseract: %w", err)
	}
	if err := cmd.Start(); err != nil {
		if ctx.Err() != nil {
			return Page{}, fmt.Errorf("OCR of the page passed its deadline (%s): %w", timeout, ctx.Err())
		}
		return Page{}, fmt.Errorf("start tesseract: %w", err)
	}
	memory := e.PageMemory
	if memory <= 0 {
		memory = DefaultPageMemory
	}
	// The limit is set before tesseract is sent its image, so nothing it
	// allocates for the image escapes it.
	if err := limitMemory(cmd.Process.Pid, memory); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return Page{}, fmt.Errorf("limit tesseract's memory: %w", err)
	}
	writeErr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(stdin, 1<<16)
		err := writePGM(w, img)
		if err == nil {
			err = w.Flush()
		}
		writeErr <- errors.Join(err, stdin.Close())
	}()
	err = cmd.Wait()
	werr := <-writeErr
	switch {
	case ctx.Err() != nil:
		return Page{}, fmt.Errorf("OCR of the page passed its deadline (%s): %w", timeout, ctx.Err())
	case err != nil:
		return Page{}, fmt.Errorf("tesseract: %w: %s", err, lastLine(stderr.String()))
	case werr != nil:
		return Page{}, fmt.Errorf("send the page to tesseract: %w", werr)
	}
	return parseTSV(stdout.String()), nil
}

// lastLine is tesseract's last line of complaint, the one that says why.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// capped keeps the first max bytes written to it and drops the rest.
type capped struct {
	buf *bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// writePGM writes img as a binary PGM (P5), the one format sift hands
// tesseract.
func writePGM(w io.Writer, img *image.Gray) error {
	b := img.Bounds()
	if _, err := fmt.Fprintf(w, "P5\n%d %d\n255\n", b.Dx(), b.Dy()); err != nil {
		return err
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		off := img.PixOffset(b.Min.X, y)
		if _, err := w.Write(img.Pix[off : off+b.Dx()]); err != nil {
			return err
		}
	}
	return nil
}

// parseTSV reads tesseract's TSV: the words, by block, paragraph and
// line, and their mean confidence.
func parseTSV(tsv string) Page {
	var b strings.Builder
	var sum float64
	var words int
	lastPar, lastLine := "", ""
	for i, line := range strings.Split(tsv, "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) < 12 || f[0] != "5" {
			continue
		}
		text := strings.TrimSpace(f[11])
		if text == "" {
			continue
		}
		par, ln := f[1]+"."+f[2]+"."+f[3], f[4]
		switch {
		case b.Len() == 0:
		case par != lastPar:
			b.WriteString("\n\n")
		case ln != lastLine:
			b.WriteString("\n")
		default:
			b.WriteString(" ")
		}
		b.WriteString(text)
		lastPar, lastLine = par, ln
		if c, err := strconv.ParseFloat(f[10], 64); err == nil && c >= 0 {
			sum += c
			words++
		}
	}
	p := Page{Text: b.String(), Words: words}
	if words > 0 {
		p.Confidence = sum / float64(words)
	}
	return p
}
