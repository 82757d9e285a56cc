package html

import "strings"

// With the images option, the images after the content's text are the
// page's own: a gallery closing a post, a figure after the last
// paragraph. To the link tail (tail.go) a block of three images was a
// block of three links, their alt texts its words, and it went with the
// tags and "read next" lists, without a word; pixels, icons and share
// buttons are left out before (images.go: isPixel, isIcon). So there the
// tail is sought among the blocks that hold text, each judged by its text
// and its links without its images (teasers' thumbnails go with their
// titles), and a block of images alone stays wherever it stands, the link
// blocks around it going still.

// isImageBlock reports whether block holds images and nothing else but
// list markers, table pipes and blanks.
func isImageBlock(block string) bool {
	rest, images := withoutImages(block)
	if images == 0 {
		return false
	}
	for line := range strings.Lines(rest) {
		if strings.ContainsFunc(withoutListMarker(line), isWordRune) {
			return false
		}
	}
	return true
}

// withoutListMarker is line without the bullet or number that starts a
// list item, whose number is no word of it.
func withoutListMarker(line string) string {
	line = strings.TrimLeft(line, " \t")
	if rest, ok := strings.CutPrefix(line, "- "); ok {
		return rest
	}
	if rest, ok := strings.CutPrefix(line, "* "); ok {
		return rest
	}
	if rest, ok := strings.CutPrefix(line, "+ "); ok {
		return rest
	}
	digits := 0
	for digits < len(line) && digits < 9 && line[digits] >= '0' && line[digits] <= '9' {
		digits++
	}
	if digits > 0 && digits+1 < len(line) && (line[digits] == '.' || line[digits] == ')') && line[digits+1] == ' ' {
		return line[digits+2:]
	}
	return line
}

// withoutImages is block with each image, and each link holding an image
// alone, replaced by a blank, and the number of images.
func withoutImages(block string) (string, int) {
	var b strings.Builder
	at, images := 0, 0
	markdownImages(block, func(start, end int) {
		b.WriteString(block[at:start])
		b.WriteByte(' ')
		at = end
		images++
	})
	if images == 0 {
		return block, 0
	}
	b.WriteString(block[at:])
	return b.String(), images
}

// markdownImages calls f with the bounds of each markdown image of s,
// ![alt](src), or of the link holding it alone, [![alt](src)](href) (the
// images option writes a linked image so, images.go: soleLink), left to
// right without overlap. The alt text is what markdownLinks takes for a
// link's text, the target anything up to the first ")". One pass, linear
// in s, as markdownLinks: a gallery's one block may hold 100,000 images.
func markdownImages(s string, f func(start, end int)) {
	for i := 0; i < len(s); {
		k := strings.Index(s[i:], "![")
		if k < 0 {
			return
		}
		start := i + k
		end, next := linkEnd(s, start+1)
		switch {
		case next < 0:
			return // nothing after closes either
		case end < 0:
			i = max(next, start+2)
			continue
		}
		if start > 0 && s[start-1] == '[' && end < len(s) && s[end] == ']' {
			if outer, _ := linkTargetEnd(s, end+1); outer > 0 {
				start, end = start-1, outer
			}
		}
		f(start, end)
		i = end
	}
}

// linkEnd reads the link "[text](target)" at s[open], open at its "[". It
// returns the end of the link, or -1 when none is there, and where to go
// on looking: past the text, as every "[" inside it fails where this one
// did; -1 when neither its text nor its target closes, nor will any
// after.
func linkEnd(s string, open int) (end, next int) {
	j := linkTextEnd(s, open)
	if j >= len(s) {
		return -1, -1
	}
	if s[j] != ']' {
		return -1, j
	}
	switch end, ok := linkTargetEnd(s, j+1); {
	case !ok:
		return -1, -1
	case end < 0:
		return -1, j
	default:
		return end, end
	}
}

// linkTargetEnd reads the target "(…)" at s[at]: its end, or -1 when none
// starts there; ok is false when a "(" starts there and no ")" closes it.
func linkTargetEnd(s string, at int) (end int, ok bool) {
	if at >= len(s) || s[at] != '(' {
		return -1, true
	}
	closing := strings.IndexByte(s[at+1:], ')')
	if closing < 0 {
		return -1, false
	}
	return at + 1 + closing + 1, true
}
