package firecrawl

import (
	"fmt"
	"strings"
)

// lineDiff is changeTracking's git-diff mode: the previous and current
// markdown as a unified diff (diff.text), and the same hunks as
// Firecrawl's parsed form (diff.json: files, chunks, changes).
type lineDiff struct {
	Text string   `json:"text"`
	JSON diffJSON `json:"json"`
}

type diffJSON struct {
	Files []diffFile `json:"files"`
}

type diffFile struct {
	From   *string     `json:"from"`
	To     *string     `json:"to"`
	Chunks []diffChunk `json:"chunks"`
}

type diffChunk struct {
	Content string       `json:"content"`
	Changes []diffChange `json:"changes"`
}

// diffChange is one line of a chunk: "add" (ln, the new line's number),
// "del" (ln, the old line's) or "normal" (ln1 and ln2).
type diffChange struct {
	Type    string `json:"type"`
	Normal  bool   `json:"normal,omitempty"`
	Ln      int    `json:"ln,omitempty"`
	Ln1     int    `json:"ln1,omitempty"`
	Ln2     int    `json:"ln2,omitempty"`
	Content string `json:"content"`
}

// diffContext is how many unchanged lines stand around a change.
const diffContext = 3

// maxDiffCells bounds the table the middle of two texts is compared in
// (lines × lines): past it the middle is written as removed, then added,
// a diff that is still exact, only not the smallest.
const maxDiffCells = 4 << 20

// op is one line of the edit script: ' ', '-' or '+', with its numbers
// in the old and new text (1-based; 0 where it has none).
type op struct {
	kind     byte
	old, new int
	text     string
}

// unifiedDiff compares two markdowns line by line.
func unifiedDiff(before, after string) *lineDiff {
	a, b := splitLines(before), splitLines(after)
	script := editScript(a, b)
	from, to := "previous", "current"
	out := &lineDiff{JSON: diffJSON{Files: []diffFile{{From: &from, To: &to, Chunks: []diffChunk{}}}}}
	var text strings.Builder
	text.WriteString("--- previous\n+++ current\n")
	for _, h := range hunks(script) {
		oldStart, oldLen, newStart, newLen := span(h)
		header := fmt.Sprintf("@@ -%s +%s @@", rangeOf(oldStart, oldLen), rangeOf(newStart, newLen))
		text.WriteString(header + "\n")
		chunk := diffChunk{Content: header}
		for _, o := range h {
			line := string(o.kind) + o.text
			text.WriteString(line + "\n")
			switch o.kind {
			case '+':
				chunk.Changes = append(chunk.Changes, diffChange{Type: "add", Ln: o.new, Content: line})
			case '-':
				chunk.Changes = append(chunk.Changes, diffChange{Type: "del", Ln: o.old, Content: line})
			default:
				chunk.Changes = append(chunk.Changes, diffChange{Type: "normal", Normal: true, Ln1: o.old, Ln2: o.new, Content: line})
			}
		}
		out.JSON.Files[0].Chunks = append(out.JSON.Files[0].Chunks, chunk)
	}
	out.Text = text.String()
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// editScript turns a into b: the common first and last lines are kept,
// and the middle compared by longest common subsequence while the table
// stays within maxDiffCells.
func editScript(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var script []op
	for i := range pre {
		script = append(script, op{' ', i + 1, i + 1, a[i]})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	script = append(script, middle(ma, mb, pre)...)
	for k := range suf {
		i, j := len(a)-suf+k, len(b)-suf+k
		script = append(script, op{' ', i + 1, j + 1, a[i]})
	}
	return script
}

// middle is the edit script of a to b, whose first lines are line off+1
// of their texts.
func middle(a, b []string, off int) []op {
	var script []op
	if (len(a)+1)*(len(b)+1) > maxDiffCells {
		for i, l := range a {
			script = append(script, op{'-', off + i + 1, 0, l})
		}
		for j, l := range b {
			script = append(script, op{'+', 0, off + j + 1, l})
		}
		return script
	}
	// lcs[i][j] is the longest common subsequence of a[i:] and b[j:].
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			script = append(script, op{' ', off + i + 1, off + j + 1, a[i]})
			i, j = i+1, j+1
		case j == len(b) || (i < len(a) && lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
			script = append(script, op{'-', off + i + 1, 0, a[i]})
			i++
		default:
			script = append(script, op{'+', 0, off + j + 1, b[j]})
			j++
		}
	}
	return script
}

// hunks groups the changes of script with diffContext unchanged lines
// around each; changes closer than twice that share a hunk.
func hunks(script []op) [][]op {
	var out [][]op
	start, end := -1, -1 // the current hunk, script[start:end]
	for i, o := range script {
		if o.kind == ' ' {
			continue
		}
		lo, hi := max(0, i-diffContext), min(len(script), i+diffContext+1)
		if start >= 0 && lo <= end {
			end = max(end, hi)
			continue
		}
		if start >= 0 {
			out = append(out, script[start:end])
		}
		start, end = lo, hi
	}
	if start >= 0 {
		out = append(out, script[start:end])
	}
	return out
}

// span is a hunk's first line and length in the old and the new text.
func span(h []op) (oldStart, oldLen, newStart, newLen int) {
	for _, o := range h {
		if o.kind != '+' {
			if oldLen == 0 {
				oldStart = o.old
			}
			oldLen++
		}
		if o.kind != '-' {
			if newLen == 0 {
				newStart = o.new
			}
			newLen++
		}
	}
	if oldLen == 0 {
		oldStart = lineBefore(h, true)
	}
	if newLen == 0 {
		newStart = lineBefore(h, false)
	}
	return oldStart, oldLen, newStart, newLen
}

// lineBefore is, for a hunk with no line on one side, the number of the
// line after which it stands there (unified diff's "-N,0").
func lineBefore(h []op, old bool) int {
	if old {
		return max(0, h[0].new-1) // all added: the old text's line before
	}
	return max(0, h[0].old-1)
}

func rangeOf(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
