package focus

import (
	"strings"
	"unicode/utf8"

	"github.com/siftd/sift/tokens"
)

// pieceShare is the largest share of the budget one prose part may take
// before it is cut into runs of whole sentences, so a page that is one
// long paragraph can still be selected from.
const pieceShare = 4

// splitLong cuts paragraphs and list items costlier than budget/pieceShare
// tokens into runs of whole sentences under that size. Code blocks and
// table rows stay whole.
func splitLong(sp Split, budget int) Split {
	limit := max(budget/pieceShare, 16)
	var parts []Part
	for _, p := range sp.Parts {
		if (p.Kind != Paragraph && p.Kind != ListItem) || len(p.Text) < limit || tokens.Count(p.Text) <= limit {
			parts = append(parts, p)
			continue
		}
		cut := pieces(p, limit, budget)
		for i := 1; i < len(cut); i++ {
			cut[i].Cont = true
		}
		parts = append(parts, cut...)
	}
	sp.Parts = parts
	return sp
}

// pieces cuts p after sentence ends into runs of at most about limit
// tokens; a single sentence longer than that is a piece of its own, and
// only one longer than the whole budget is cut between words.
func pieces(p Part, limit, budget int) []Part {
	var out []Part
	from := 0
	cost := 0
	ends := sentenceEnds(p.Text)
	prev := 0
	for _, e := range ends {
		c := tokens.Count(p.Text[prev:e])
		if c > limit {
			// A sentence over the limit (or text without sentence ends)
			// stands alone, cut between words only past the budget.
			if cost > 0 {
				out = appendPiece(out, piece(p, from, prev))
			}
			if c <= budget {
				out = appendPiece(out, piece(p, prev, e))
			} else {
				for _, w := range wordRuns(p.Text, prev, e, budget) {
					out = appendPiece(out, piece(p, w[0], w[1]))
				}
			}
			from, cost, prev = e, 0, e
			continue
		}
		if cost > 0 && cost+c > limit {
			out = appendPiece(out, piece(p, from, prev))
			from, cost = prev, 0
		}
		cost += c
		prev = e
	}
	if from < len(p.Text) {
		out = appendPiece(out, piece(p, from, len(p.Text)))
	}
	return out
}

func piece(p Part, from, to int) Part {
	text := p.Text[from:to]
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	text = strings.TrimSpace(text)
	q := p
	q.Text, q.Start = text, p.Start+from+lead
	q.End = q.Start + len(text)
	return q
}

// sentenceEnds are the offsets just past each sentence of s: after ".",
// "!" or "?" (and any closing quote or bracket) followed by a space, and
// after each line break; the last is len(s).
func sentenceEnds(s string) []int {
	var ends []int
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			ends = append(ends, i+1)
		case '.', '!', '?':
			j := i + 1
			for j < len(s) && strings.IndexByte(`"')]`, s[j]) >= 0 {
				j++
			}
			if j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				ends = append(ends, j+1)
				i = j
			}
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != len(s) {
		ends = append(ends, len(s))
	}
	return ends
}

// wordRuns cuts s[from:to] at spaces into runs of at most limit tokens.
func wordRuns(s string, from, to, limit int) [][2]int {
	var runs [][2]int
	for from < to {
		// About three bytes a token; shrink until the run counts under limit.
		end := min(to, from+3*limit)
		for end < to && end > from && s[end] != ' ' && s[end] != '\n' {
			end--
		}
		if end == from {
			end = min(to, from+3*limit)
			for end < to && !utf8.RuneStart(s[end]) {
				end++
			}
		}
		for tokens.Count(s[from:end]) > limit {
			cut := strings.LastIndexByte(s[from:end-1], ' ')
			if cut <= 0 {
				break
			}
			end = from + cut
		}
		runs = append(runs, [2]int{from, end})
		from = end
	}
	return runs
}

func appendPiece(out []Part, p Part) []Part {
	if p.Text == "" {
		return out
	}
	return append(out, p)
}
