package html

import "strings"

// markdownLinks calls f with the bounds of each markdown link of s, left
// to right without overlap: the link s[start:end] and its text
// s[textStart:textEnd]. A link is "[text](target)": its text escapes, or
// anything but a closing bracket or a backslash, where an escape is a
// backslash and a character other than a line end; its target anything up
// to the first ")". These are the matches the regular expression
//
//	\[((?:\\.|[^\]\\])*)\]\([^)]*\)
//
// finds, which linkCounts ran over every block of the markdown: on a 4 MB
// gallery's one block of 100,000 images it cost half a second, a third of
// the page. This is one pass, linear in s: a link that fails to close
// fails for every "[" it passed over too, so the search goes on from
// where it failed.
func markdownLinks(s string, f func(start, textStart, textEnd, end int)) {
	for i := 0; i < len(s); {
		open := strings.IndexByte(s[i:], '[')
		if open < 0 {
			return
		}
		start := i + open
		j := linkTextEnd(s, start)
		if j >= len(s) {
			return // no text closes: nor will any after
		}
		if s[j] != ']' || j+1 >= len(s) || s[j+1] != '(' {
			i = j // every "[" before j fails at j as well
			continue
		}
		closing := strings.IndexByte(s[j+2:], ')')
		if closing < 0 {
			return // no target closes: nor will any after
		}
		end := j + 2 + closing + 1
		f(start, start+1, j, end)
		i = end
	}
}

// linkTextEnd returns where the text of a link opened at s[open] (its
// "[") ends: at its "]", or at a backslash before a line end, which
// escapes nothing, or len(s).
func linkTextEnd(s string, open int) int {
	j := open + 1
	for j < len(s) {
		switch s[j] {
		case ']':
			return j
		case '\\':
			if j+1 >= len(s) || s[j+1] == '\n' {
				return j
			}
			j += 2
		default:
			j++
		}
	}
	return len(s)
}
