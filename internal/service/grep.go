package service

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"regexp/syntax"
	"strings"
	"time"

	"github.com/siftd/sift/errclass"
)

// Bounds on a request's grep. Go's regular expressions run in time linear
// in the text, but the factor is the size of the compiled program: a
// 241-byte pattern of nested optional repeats compiles to 40,000
// instructions and costs a third of a CPU-second per KB. The caps refuse
// such patterns before any fetch; the deadline bounds what a pattern
// within them can cost on a large page.
const (
	// MaxGrepPattern bounds a grep pattern's length in bytes.
	MaxGrepPattern = 256
	// MaxGrepProgram bounds the instructions a grep pattern compiles to.
	MaxGrepProgram = 256
	// GrepTimeout bounds the matching of one answer.
	GrepTimeout = 2 * time.Second
	// grepWindow is the longest stretch matched without looking at the
	// deadline: a longer line is searched in windows of this size that
	// overlap by grepOverlap, so a match longer than that across a
	// window's edge can be missed.
	grepWindow  = 8 << 10
	grepOverlap = 1 << 10
	// grepContext is how many lines around a match are kept, as grep -C.
	grepContext = 2
)

// compileGrep checks a grep pattern against the caps and compiles it.
func compileGrep(pattern string) (*regexp.Regexp, *Error) {
	if len(pattern) > MaxGrepPattern {
		return nil, badRequest(fmt.Sprintf("grep: the pattern is %d bytes, over the limit of %d", len(pattern), MaxGrepPattern))
	}
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, badRequest("grep: " + err.Error())
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return nil, badRequest("grep: " + err.Error())
	}
	if n := len(prog.Inst); n > MaxGrepProgram {
		return nil, badRequest(fmt.Sprintf("grep: the pattern compiles to %d instructions, over the limit of %d; "+
			"simplify it (fewer nested or counted repeats)", n, MaxGrepProgram))
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, badRequest("grep: " + err.Error())
	}
	return re, nil
}

// grepTimeout is the error for a grep that ran past its deadline: the
// pattern's cost on this page, which retrying will not change.
func grepTimeout(timeout time.Duration) *Error {
	return badRequest(fmt.Sprintf("grep ran past %s on this page; narrow the pattern", timeout)).WithStatus(http.StatusUnprocessableEntity)
}

// grep keeps the lines of content matching re with grepContext lines
// around each match; separate runs are joined with "--", as grep -C does.
// It stops with ctx: between lines, and every grepWindow bytes of a long
// one.
func grep(ctx context.Context, content string, re *regexp.Regexp) (string, error) {
	lines := strings.Split(content, "\n")
	keep := make([]bool, len(lines))
	for i, l := range lines {
		hit, err := matchLine(ctx, re, l)
		if err != nil {
			return "", err
		}
		if hit {
			for j := max(0, i-grepContext); j <= min(len(lines)-1, i+grepContext); j++ {
				keep[j] = true
			}
		}
	}
	var out []string
	for i, k := range keep {
		if !k {
			continue
		}
		if len(out) > 0 && i > 0 && !keep[i-1] {
			out = append(out, "--")
		}
		out = append(out, lines[i])
	}
	return strings.Join(out, "\n"), nil
}

// matchLine matches one line, window by window, looking at ctx before each.
func matchLine(ctx context.Context, re *regexp.Regexp, line string) (bool, error) {
	for start := 0; ; start += grepWindow - grepOverlap {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		end := min(len(line), start+grepWindow)
		if re.MatchString(line[start:end]) {
			return true, nil
		}
		if end == len(line) {
			return false, nil
		}
	}
}

// grepAnswer applies the request's grep to out within timeout.
func grepAnswer(ctx context.Context, out *FetchAnswer, pattern string, timeout time.Duration) *Error {
	re, ae := compileGrep(pattern)
	if ae != nil {
		return ae
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	content, err := grep(ctx, out.Content, re)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return grepTimeout(timeout)
	case err != nil:
		// The client left; nobody reads this answer.
		return ClassError(errclass.Cancelled, "the request ended")
	}
	out.Content = content
	return nil
}
