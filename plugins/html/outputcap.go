package html

import (
	"fmt"
	"strings"

	"github.com/siftd/sift/plugins/sdk"
)

// capMarkdown cuts md at the output cap (DefaultMaxOutput when maxOut is
// 0 or less) and returns the warning an agent should see when it did, or
// "". Cut anywhere, a 4 MB <pre> ended mid-line inside its fence, and
// what an agent read after the fence's opening was all code: the cut goes
// back to the last line end (cutPoint), and a fence it leaves open is
// closed, within the cap.
func capMarkdown(md string, maxOut int64) (string, string) {
	maxOut = outputCap(maxOut)
	if int64(len(md)) <= maxOut {
		return md, ""
	}
	limit := maxOut
	for range 4 {
		end, inLine := cutPoint(md, limit, maxOut)
		cut := md[:end]
		closing := openFence(cut)
		if closing != "" {
			closing = "\n" + closing
		}
		if int64(len(cut)+len(closing)) <= maxOut {
			cut = strings.TrimRight(cut, " \t\n") + closing
			warning := fmt.Sprintf("output truncated at %d of %d bytes", len(cut), len(md))
			if inLine > 0 {
				warning += fmt.Sprintf(", inside a line of %d KB", inLine/1000)
			}
			return cut, warning
		}
		limit = maxOut - int64(len(closing))
	}
	return sdk.CapOutput(md, maxOut, DefaultMaxOutput)
}

// cutPoint is where md is cut to keep at most limit bytes: the last line
// end within them, unless that gives back more than a sixteenth of the cap
// maxOut. A paragraph of 40,000 images is one line of 1.7 MB, and cut at
// its line end the output kept nothing of it nor of what followed: such a
// line is cut at its last blank or between two of its links or images
// within the limit, else at the last whole character, and inLine is the
// line's length in md (0 when the cut is at a line end).
func cutPoint(md string, limit, maxOut int64) (end, inLine int) {
	cut, _ := sdk.Truncate(md, limit)
	if md[len(cut)] == '\n' {
		return len(cut), 0 // the limit falls at a line end
	}
	start := strings.LastIndexByte(cut, '\n') + 1
	if start > 0 && int64(len(cut)-start) <= maxOut/16 {
		return start - 1, 0
	}
	lineEnd := strings.IndexByte(md[len(cut):], '\n')
	if lineEnd < 0 {
		lineEnd = len(md) - len(cut)
	}
	inLine = len(cut) + lineEnd - start
	if p := lastBreak(md, start, len(cut)); p > start {
		return p, inLine
	}
	return len(cut), inLine
}

// lastBreak is the last position p in (start, end] of md's line from
// start where the line can be cut outside any link or image: before a
// blank, or right after a link's or an image's target; start when there
// is none. A blank inside a link's text or an image's alt is no break:
// the cut would leave "![img". It reads the line once.
func lastBreak(md string, start, end int) int {
	last, brackets, parens := start, 0, 0
	for p := start; p < end; p++ {
		switch c := md[p]; {
		case c == '\\':
			p++ // an escaped character opens and closes nothing
		case parens > 0 && c == '(':
			parens++
		case parens > 0 && c == ')':
			if parens--; parens == 0 && p+1 > start {
				last = p + 1 // right after the target
			}
		case parens > 0:
		case c == '[':
			brackets++
		case c == ']' && brackets > 0:
			brackets--
			if brackets == 0 && p+1 < len(md) && md[p+1] == '(' {
				parens = 1
				p++
			}
		case brackets == 0 && (c == ' ' || c == '\t') && p > start:
			last = p
		}
	}
	if end < len(md) && brackets == 0 && parens == 0 && (md[end] == ' ' || md[end] == '\t') {
		last = end
	}
	return last
}

// outputCap is the output cap a request asks for: maxOut, or
// DefaultMaxOutput when it is 0 or less.
func outputCap(maxOut int64) int64 {
	if maxOut <= 0 {
		return DefaultMaxOutput
	}
	return maxOut
}

// openFence is the line that closes the code fence left open at the end of
// md (its quote's marks and indentation, then the fence), or "" when none
// is.
func openFence(md string) string {
	var prefix, fence string
	for line := range strings.SplitSeq(md, "\n") {
		rest := strings.TrimLeft(line, " \t>")
		if !strings.HasPrefix(rest, "```") && !strings.HasPrefix(rest, "~~~") {
			continue
		}
		run := len(rest) - len(strings.TrimLeft(rest, rest[:1]))
		switch {
		case fence == "":
			if rest[0] == '`' && strings.Contains(rest[run:], "`") {
				continue // an inline code span, not a fence
			}
			prefix, fence = line[:len(line)-len(rest)], rest[:run]
		case rest[0] == fence[0] && run >= len(fence) && strings.TrimSpace(rest[run:]) == "":
			fence = ""
		}
	}
	if fence == "" {
		return ""
	}
	// A list item's indentation and a quote's marks are the fence's too.
	return prefix + fence
}
