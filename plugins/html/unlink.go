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
	return editOutsideFences(md, func(line string) string {
		if strings.Contains(line, "](") {
			return unlinkLine(line)
		}
		return line
	})
}

// editOutsideFences returns md with each line outside fenced code (and
// not a fence) replaced by what edit makes of it.
func editOutsideFences(md string, edit func(line string) string) string {
	lines := strings.Split(md, "\n")
	inFence := false
	for i, line := range lines {
		if isFence(line) {
			inFence = !inFence
			continue
		}
		if !inFence {
			lines[i] = edit(line)
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

var (
	// mdImage matches a markdown image, with a title or without.
	mdImage = regexp.MustCompile(`!\[` + mdLinkText + `\]\((?:\\.|[^\\)\s])*(?:\s+"(?:\\.|[^"\\])*")?\)`)
	// mdLeadingImage matches an image that opens a link's text, and the
	// spaces after it.
	mdLeadingImage = regexp.MustCompile(`\[` + mdImage.String() + `\s*`)
	// mdEmptyLink matches a link left with no text.
	mdEmptyLink = regexp.MustCompile(`\[\s*\]\([^)]*\)`)
	// spaceRuns are runs of spaces and tabs.
	spaceRuns = regexp.MustCompile(`[ \t]{2,}`)
)

// dropImageMarkdown removes the images of md, without the images option:
// go-trafilatura's fallbacks kept some, as they stood in the page (a lazy
// loader's placeholder, a tracking pixel). A link that held an image
// alone goes with it; fenced code and code spans stay as they are. It
// works on the finished markdown, so that the rules before it read the
// same markdown whatever is asked for (the tail rule counted an image's
// URL among a row's words).
func dropImageMarkdown(md string) string {
	if !strings.Contains(md, "![") {
		return md
	}
	md = editOutsideFences(md, func(line string) string {
		if !strings.Contains(line, "![") {
			return line
		}
		parts := strings.Split(line, "`")
		for k := 0; k < len(parts); k += 2 {
			if strings.Contains(parts[k], "![") {
				text := mdLeadingImage.ReplaceAllString(parts[k], "[")
				text = mdEmptyLink.ReplaceAllString(mdImage.ReplaceAllString(text, ""), "")
				parts[k] = spaceRuns.ReplaceAllString(text, " ")
			}
		}
		// a nested list's indentation, which the spaces' runs lost, stays
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if line = strings.TrimLeft(strings.Join(parts, "`"), " \t"); line != "" {
			line = indent + line
		}
		return line
	})
	return strings.TrimSpace(blankRuns.ReplaceAllString(md, "\n\n"))
}
