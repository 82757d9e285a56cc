package html

import (
	"regexp"
	"strings"
)

// mdLinkOrLinkedImage matches a markdown link, capturing its text, or an
// image wrapped in a link, capturing the image.
var mdLinkOrLinkedImage = regexp.MustCompile(`\[(!\[` + mdLinkText + `\]\([^)]*\)|` + mdLinkText + `)\]\([^)]*\)`)

// unlinkMarkdown renders every link in md as its text, for the request
// option links=false: a linked image becomes the image, and images, fenced
// code and code spans stay as they are.
func unlinkMarkdown(md string) string {
	lines := strings.Split(md, "\n")
	inFence := false
	for i, line := range lines {
		if isFence(line) {
			inFence = !inFence
			continue
		}
		if !inFence && strings.Contains(line, "](") {
			lines[i] = unlinkLine(line)
		}
	}
	return strings.Join(lines, "\n")
}

// unlinkLine unlinks the links of one line outside its code spans (the
// parts between backticks).
func unlinkLine(line string) string {
	parts := strings.Split(line, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = unlinkText(parts[i])
	}
	return strings.Join(parts, "`")
}

func unlinkText(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range mdLinkOrLinkedImage.FindAllStringSubmatchIndex(s, -1) {
		if m[0] > 0 && s[m[0]-1] == '!' {
			continue // an image, not a link
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(s[m[2]:m[3]])
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
