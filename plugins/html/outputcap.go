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
// back to the last line end, and a fence it leaves open is closed, within
// the cap.
func capMarkdown(md string, maxOut int64) (string, string) {
	maxOut = outputCap(maxOut)
	if int64(len(md)) <= maxOut {
		return md, ""
	}
	limit := maxOut
	for range 4 {
		cut, _ := sdk.Truncate(md, limit)
		if i := strings.LastIndexByte(cut, '\n'); i > 0 {
			cut = cut[:i]
		}
		closing := openFence(cut)
		if closing != "" {
			closing = "\n" + closing
		}
		if int64(len(cut)+len(closing)) <= maxOut {
			cut = strings.TrimRight(cut, " \t\n") + closing
			return cut, fmt.Sprintf("output truncated at %d of %d bytes", len(cut), len(md))
		}
		limit = maxOut - int64(len(closing))
	}
	return sdk.CapOutput(md, maxOut, DefaultMaxOutput)
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
